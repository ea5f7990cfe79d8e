import fc from 'fast-check';
import request from 'supertest';
import { NEGOTIATED_CHARS, NEGOTIATED_ENTRIES, negotiatedPart } from '../../src/i18n/locales';
import { agentFor, useStack } from '../support/stack';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { signInAndConnect } from '../support/flow';
import { attr, find, links, textOf } from '../support/dom';
import { headline } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;

/** docs/architecture.md#languages: the language is decided once per request, from the menu's cookie or the browser's. */
describe('choosing the language', () => {
  const stack = useStack();
  const home = (headers: Record<string, string> = {}) => {
    let req = request(stack.app).get('/');
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    return req.expect(200);
  };

  it.each([
    ['de-AT,de;q=0.9,en;q=0.5', 'de', 'Deine Seite auf einen Blick'],
    ['pt', 'pt-BR', 'Sua Página em um relance'],
    ['pt-PT', 'pt-BR', 'Sua Página em um relance'],
    ['fr;q=0.4, ja;q=0.8, xx', 'ja', 'あなたのページをひと目で'],
    ['ar-EG', 'ar', 'صفحتك في لمحة'],
    ['es-419', 'es', 'Tu página de un vistazo'],
    ['tlh, xx-YY', 'en', 'Your Page, at a glance'],
    ['', 'en', 'Your Page, at a glance'],
  ])('when the browser asks for "%s", then the page is in %s and says so', async (accept, tag, heading) => {
    const res = await home(accept ? { 'Accept-Language': accept } : {});
    expect(res.headers['content-language']).toBe(tag);
    const html = find(res.text, 'html')!;
    expect([attr(html, 'lang'), attr(html, 'dir')]).toEqual([tag, tag === 'ar' ? 'rtl' : 'ltr']);
    expect(headline(res.text)).toBe(heading);
  });

  it('when browsers ask in turn for different languages, and again, then each page is in the one its own header asks for', async () => {
    const asked = ['de-AT,de;q=0.9', 'ja', 'de-AT,de;q=0.9', 'es-419', 'ja', 'tlh', 'de-AT,de;q=0.9'];
    const answered: (string | undefined)[] = [];
    for (const accept of asked) answered.push((await home({ 'Accept-Language': accept })).headers['content-language']);
    expect(answered).toEqual(['de', 'ja', 'de', 'es', 'ja', 'en', 'de']);
  });

  it('when a page can change with the language, then it varies by Accept-Language and Cookie', async () => {
    for (const path of ['/', '/privacy', '/no-such-page']) {
      const res = await request(stack.app).get(path).set('Accept-Language', 'de');
      expect(res.headers.vary).toMatch(/Accept-Language/);
      expect(res.headers.vary).toMatch(/Cookie/);
      expect(res.headers['content-language']).toBe('de');
    }
  });

  it('when the footer menu is used without script, then a cookie remembers the choice and the same page opens in it', async () => {
    const agent = agentFor(stack);
    const privacy = await agent.get('/privacy').set('Accept-Language', 'en').expect(200);
    const japanese = links(privacy.text).find((l) => l.href === '/language?lang=ja&returnTo=%2Fprivacy')!;
    expect([attr(japanese.node, 'lang'), attr(japanese.node, 'hreflang')]).toEqual(['ja', 'ja']);
    const english = links(privacy.text).find((l) => l.href === '/language?lang=en&returnTo=%2Fprivacy')!;
    expect(attr(english.node, 'aria-current')).toBe('true');
    const chosen = await agent.get('/language?lang=ja&returnTo=%2Fprivacy').expect(303);
    expect(chosen.headers.location).toBe('/privacy');
    const cookie = String(chosen.headers['set-cookie']);
    expect(cookie).toMatch(/^lang=ja; Max-Age=31536000; Path=\//);
    expect(cookie).toMatch(/SameSite=Lax/);
    // The cookie wins over the browser's languages, signed out as signed in.
    const after = await agent.get('/privacy').set('Accept-Language', 'de').expect(200);
    expect(after.headers['content-language']).toBe('ja');
    expect(headline(after.text)).toBe('プライバシー');
  });

  it('when the menu is used on a Page, then the person goes back to that Page, signed in, in the new language', async () => {
    const agent = agentFor(stack);
    await signInAndConnect(agent, BAKERY);
    const page = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(links(page.text).map((l) => l.href)).toContain(`/language?lang=de&returnTo=%2Fpages%2F${BAKERY}`);
    const back = await agent.get(`/language?lang=de&returnTo=%2Fpages%2F${BAKERY}`).expect(303);
    expect(back.headers.location).toBe(`/pages/${BAKERY}`);
    const german = await agent.get(`/pages/${BAKERY}`).expect(200);
    expect(textOf(find(german.text, { id: 'feed-title' })!)).toBe('Neueste Beiträge');
  });

  it.each([
    ['another site', 'https://evil.example/'],
    ['a protocol-relative address', '//evil.example/x'],
    ['an encoded slash', '/%2F%2Fevil.example'],
    ['a path of ours that is no page', '/auth/logout'],
  ])('when the menu is asked to go back to %s, then it goes home instead', async (_what, returnTo) => {
    const res = await request(stack.app)
      .get(`/language?lang=fr&returnTo=${encodeURIComponent(returnTo)}`)
      .expect(303);
    expect(res.headers.location).toBe('/');
  });

  it('when the menu is asked for a language Pagelight does not speak, then a 400 page in the current language says so and sets nothing', async () => {
    const res = await request(stack.app).get('/language?lang=tlh').set('Accept-Language', 'es').expect(400);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain('Pagelight no habla este idioma.');
    const twice = await request(stack.app).get('/language?lang=de&lang=fr').expect(400);
    expect(twice.headers['set-cookie']).toBeUndefined();
  });

  it("when the cookie names a language Pagelight does not speak, then it is ignored for the browser's", async () => {
    const res = await home({ Cookie: 'lang=xx', 'Accept-Language': 'fr' });
    expect(res.headers['content-language']).toBe('fr');
  });
});

/** docs/operations.md#security-notes: negotiation reads only the header's first entries, whatever it holds. */
describe('a hostile Accept-Language', () => {
  const stack = useStack();
  const contentLanguage = async (accept: string) =>
    (await request(stack.app).get('/').set('Accept-Language', accept).expect(200)).headers['content-language'];

  it(`when the language asked for comes after the first ${NEGOTIATED_ENTRIES} entries, then it is not looked at`, async () => {
    const late = [...Array<string>(NEGOTIATED_ENTRIES).fill('xx'), 'de'].join(',');
    expect(await contentLanguage(late)).toBe('en');
    expect(await contentLanguage('xx,de')).toBe('de');
  });

  it('when the header is 15 KB of "*,", then the page is still answered, in English', async () => {
    expect(await contentLanguage('*,'.repeat(7_500))).toBe('en');
  });

  it('when any header is given, then what negotiation reads is a few entries of bounded length', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20_000, unit: fc.constantFrom('*', ',', ';', 'q', '=', '0', '.', 'd', 'e', '-', ' ') }),
        (header) => {
          const read = negotiatedPart(header);
          expect(read.length).toBeLessThanOrEqual(NEGOTIATED_CHARS);
          expect(read.split(',').length).toBeLessThanOrEqual(NEGOTIATED_ENTRIES);
          expect(header.startsWith(read)).toBe(true);
        },
      ),
    );
  });

  it('when the header is cut at its bound, then the entry cut in two is dropped rather than read as another language', () => {
    const header = `${'xx;q=0.1,'.repeat(2)}${'d'.repeat(NEGOTIATED_CHARS)}e`;
    expect(negotiatedPart(header)).toBe('xx;q=0.1,xx;q=0.1');
  });
});
