import { SEED_IDS } from '@pagelight/graph-emulator';
import { PORTFOLIO_CALLS } from '../../src/graph/client';
import { csrfFrom, signedInAgent } from '../support/flow';
import { stubGraphClient } from '../support/graph-client';
import { listen, startStack, type Stack } from '../support/stack';
import { headingTexts } from '../support/dom';
import { visibleText } from '../support/words';

/** docs/provider-interface.md#portfolio-pages */
const P = SEED_IDS.pages;
const WITH_BUSINESS = { FB_SCOPES: 'pages_show_list pages_read_engagement business_management' };

/** How many times a name appears in the picker (one card per Page). */
const cardsNamed = (html: string, name: string) => headingTexts(html, 'h2').filter((text) => text === name).length;

describe('GraphClient.listPortfolioPages', () => {
  it(`when portfolios and their Pages go on and on, then it stops after ${PORTFOLIO_CALLS} calls in all, follows next by its cursor, and says the list was cut`, async () => {
    const paths: string[] = [];
    const provider = await listen((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      paths.push(`${url.pathname}?after=${url.searchParams.get('after') ?? ''}`);
      const business = /^\/v26\.0\/(\d+)\/owned_pages$/.exec(url.pathname)?.[1];
      const body = url.pathname.endsWith('/me/businesses')
        ? { data: Array.from({ length: 20 }, (_, i) => ({ id: String(500 + i), name: `Portfolio ${i}` })) }
        : business && !url.searchParams.get('after')
          ? {
              data: [{ id: `9${business}`, name: `Shop ${business}` }],
              // As the provider's: on its own origin and path, with the token (docs/provider-interface.md#paging).
              paging: { next: `${provider.url}${url.pathname}?access_token=EAAsecret&limit=100&after=c1` },
            }
          : { data: [{ id: `8${business ?? '0'}`, name: 'More' }] };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    });
    const client = stubGraphClient(provider.url);
    try {
      const list = await client.listPortfolioPages('user-token');
      expect(paths).toHaveLength(PORTFOLIO_CALLS);
      expect(paths).toContain('/v26.0/500/owned_pages?after=c1');
      expect(list.cut).toBe(true);
      expect(list.pages[0]).toEqual({ id: '9500', name: 'Shop 500', portfolio: 'Portfolio 0' });
      expect(JSON.stringify(list)).not.toContain('EAAsecret');
    } finally {
      client.close();
      await provider.close();
    }
  });
});

describe('the picker with business portfolios', () => {
  let stack: Stack;
  afterEach(() => stack.close());

  it('when business_management is granted, then the portfolio Pages are listed, marked with the portfolio, and a Page also in /me/accounts once', async () => {
    stack = await startStack({ env: WITH_BUSINESS });
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.ada });
    const picker = await agent.get('/pages').expect(200);
    expect(cardsNamed(picker.text, 'Somerville Instrument Shop')).toBe(1);
    expect(cardsNamed(picker.text, 'Somerville Design Studio')).toBe(1);
    expect(cardsNamed(picker.text, 'Lovelace Analytical Bakery')).toBe(1);
    expect(visibleText(picker.text).split('Through the business portfolio Somerville Works').length - 1).toBe(2);
    expect(picker.text).not.toContain('portfolio-hint');
    expect(stack.emulator.controls.calls({ path: '/me/businesses' })).toBe(1);
  });

  it('when the person reaches Pages only through a portfolio, then they are listed instead of the "no Pages" state, and one connects to its page view', async () => {
    stack = await startStack({ env: WITH_BUSINESS });
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.somerville });
    const picker = await agent.get('/pages').expect(200);
    expect(picker.text).not.toContain('You manage no Pages');
    expect(picker.text).toContain('Somerville Design Studio');
    await agent
      .post(`/pages/${P.portfolioStudio}/connect`)
      .type('form')
      .send({ _csrf: csrfFrom(picker.text) })
      .expect(303)
      .expect('location', `/pages/${P.portfolioStudio}`);
    const page = await agent.get(`/pages/${P.portfolioStudio}`).expect(200);
    expect(page.text).toContain('Somerville Design Studio');
  });

  it('when the app asks for business_management and the person declines it, then the picker says in one line how to see portfolio Pages', async () => {
    stack = await startStack({ env: WITH_BUSINESS });
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.ada, decline: ['business_management'] });
    const picker = await agent.get('/pages').expect(200);
    expect(picker.text).not.toContain('Somerville Instrument Shop');
    expect(picker.text).toContain(
      'To see the Pages of your business portfolios here, allow “Reach Pages in your business portfolio”.',
    );
    expect(stack.emulator.controls.calls({ path: '/me/businesses' })).toBe(0);
  });

  it("when the app does not ask for business_management, then the picker lists /me/accounts alone and says a role of one's own is needed", async () => {
    stack = await startStack();
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.ada });
    const picker = await agent.get('/pages').expect(200);
    expect(picker.text).toContain('Lovelace Analytical Bakery');
    expect(picker.text).not.toContain('Somerville');
    expect(picker.text).toContain('ask its admin to give your own account a role on the Page');
  });

  it('when the person reaches no Page at all, even with the permission, then the "no Pages" state shows without the portfolio line', async () => {
    stack = await startStack({ env: WITH_BUSINESS });
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.alan });
    const picker = await agent.get('/pages').expect(200);
    expect(picker.text).toContain('You manage no Pages that Pagelight can see');
    expect(picker.text).not.toContain('portfolio-hint');
  });

  it('when the provider refuses /me/businesses despite the grant, then /me/accounts is listed and the portfolio line shows', async () => {
    stack = await startStack({ env: WITH_BUSINESS });
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.ada });
    stack.emulator.controls.failNext(1, {
      kind: 'graph',
      status: 403,
      error: { code: 200, message: '(#200) Requires business_management permission to manage the object' },
      match: '/me/businesses',
    });
    const picker = await agent.get('/pages').expect(200);
    expect(picker.text).toContain('Lovelace Analytical Bakery');
    expect(picker.text).toContain('portfolio-hint');
  });

  it(`when the picker is reloaded, then the portfolio listing is not read again (at most ${PORTFOLIO_CALLS} calls, cached with /me/accounts)`, async () => {
    stack = await startStack({ env: { ...WITH_BUSINESS, ACCOUNTS_CACHE_TTL: '60' } });
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.somerville });
    stack.emulator.controls.clearLog();
    await agent.get('/pages').expect(200);
    const first = stack.emulator.controls.calls();
    expect(first).toBeLessThanOrEqual(1 + PORTFOLIO_CALLS);
    await agent.get('/pages').expect(200);
    expect(stack.emulator.controls.calls()).toBe(first);
  });
});
