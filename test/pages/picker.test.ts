import { SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';
import { signedInAgent, signIn } from '../support/flow';
import { agentFor, useStack, type Agent } from '../support/stack';
import { attr, find, findAll, forms, images, textOf, type DomNode } from '../support/dom';
import { hrefOf, visibleText } from '../support/words';

/** The Pages a picker shows, in order, with whether the filter hid them. */
function pickerItems(html: string): { name: string; hidden: boolean; item: DomNode }[] {
  return findAll(html, { tag: 'li', class: 'picker-item' }).map((item) => ({
    hidden: attr(item, 'hidden') !== undefined,
    name: textOf(find(item, 'h2')!),
    item,
  }));
}

const visible = (html: string) =>
  pickerItems(html)
    .filter((i) => !i.hidden)
    .map((i) => i.name);

/** The 30 Pages of the seeded person with many Pages, by name. */
const fairfaxNames = (): string[] => {
  const roles = TEST_SEED.users.find((u) => u.id === SEED_IDS.users.fairfax)!.roles;
  return roles.map((r) => TEST_SEED.pages.find((p) => p.id === r.pageId)!.name);
};

/** docs/architecture.md#picker */
describe('the picker of a person with many Pages', () => {
  // Looking for each of 30 Pages in turn is more picker views than a session may open in a minute.
  const stack = useStack({ env: { SESSION_RATE_LIMIT: '1000' } });
  let agent: Agent;
  beforeAll(async () => {
    agent = agentFor(stack);
    await signIn(agent, { user: SEED_IDS.users.fairfax });
  });

  it('when it lists 30 Pages, then each shows its picture, category, followers and the person’s role, from the same 3 calls', async () => {
    const fresh = agentFor(stack);
    await signIn(fresh, { user: SEED_IDS.users.fairfax });
    stack.emulator.controls.clearLog();
    const res = await fresh.get('/pages').expect(200);
    const items = pickerItems(res.text);
    expect(items.map((i) => i.name)).toEqual(fairfaxNames());
    for (const item of items) {
      expect(images(item.item).find((img) => img.class === 'avatar')?.src).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      const facts = findAll(item.item, 'span').map(textOf);
      expect(facts).toContain('Bakery');
      expect(facts).toContainEqual(expect.stringMatching(/^[\d,]+ followers$/));
      expect(textOf(item.item)).toContain('Your role: Admin');
    }
    // Pictures and followers come by field expansion: as many calls as the bare list took (10 Pages a call).
    expect(stack.emulator.controls.calls({ path: '/me/accounts' })).toBe(3);
  });

  it('when it lists more than eight Pages, then a filter box asks the server with ?q= and shows all by default', async () => {
    const res = await agent.get('/pages').expect(200);
    const filter = forms(res.text).find((f) => f.role === 'search');
    expect(filter).toMatchObject({ method: 'get', action: '/pages' });
    expect(filter!.fields.map((f) => f.name)).toContain('q');
    expect(visibleText(res.text)).toContain('30 Pages.');
    expect(visible(res.text)).toHaveLength(30);
  });

  it('when ?q= is given, then only the Pages with a word starting with it are shown, the others hidden, and the count says so', async () => {
    const res = await agent.get('/pages?q=ch').expect(200);
    expect(visible(res.text)).toEqual(['Fairfax Bakery Chelsea']);
    expect(pickerItems(res.text)).toHaveLength(30);
    expect(visibleText(res.text)).toContain('1 of 30 Pages match “ch”.');
    expect(forms(res.text).find((f) => f.role === 'search')?.values.q).toBe('ch');
    expect(hrefOf(res.text, 'Show all')).toBe('/pages');
  });

  it('when ?q= matches none, then no Page is shown and the page says so', async () => {
    const res = await agent.get('/pages?q=zz').expect(200);
    expect(visible(res.text)).toEqual([]);
    expect(visibleText(res.text)).toContain('No Page matches “zz”.');
  });

  it('when ?q= carries accents, case or spaces, then it matches as the words read: "FAIRFAX  bak" finds all 30', async () => {
    const res = await agent.get(`/pages?q=${encodeURIComponent('  FAIRFAX  bák ')}`).expect(200);
    expect(visible(res.text)).toHaveLength(30);
  });

  it('when each of the 30 is looked for, then two letters typed leave that one Page alone', async () => {
    const names = fairfaxNames();
    expect(names).toHaveLength(30);
    for (const name of names) {
      // The start of any word may do; the last word is the one that tells them apart, so it is tried first.
      const candidates = name
        .split(' ')
        .reverse()
        .map((w) => w.slice(0, 2).toLowerCase());
      let found: string | undefined;
      for (const q of candidates) {
        const res = await agent.get(`/pages?q=${q}`).expect(200);
        const shown = visible(res.text);
        if (shown.length === 1 && shown[0] === name) found = q;
        if (found) break;
      }
      expect({ name, found: found !== undefined }).toEqual({ name, found: true });
    }
  });

  it('when ?q= is repeated or too long, then 400 with a sentence, and nothing else goes wrong', async () => {
    const repeated = await agent.get('/pages?q=a&q=b').expect(400);
    expect(visibleText(repeated.text)).toContain('The parameter "q" must be given once.');
    const long = await agent.get(`/pages?q=${'a'.repeat(101)}`).expect(400);
    expect(visibleText(long.text)).toContain('The parameter "q" is too long.');
  });
});

describe('the picker of a person with a few Pages', () => {
  const stack = useStack();

  it('when the person manages eight Pages or fewer, then there is no filter box and ?q= hides nothing', async () => {
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.ada });
    const res = await agent.get('/pages?q=zz').expect(200);
    expect(forms(res.text).filter((f) => f.role === 'search')).toEqual([]);
    expect(visible(res.text).length).toBeGreaterThan(0);
    expect(pickerItems(res.text).every((i) => !i.hidden)).toBe(true);
  });

  it('when a Page has no picture, then its first letter stands in; when it has no followers, none are claimed', async () => {
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.ada });
    const items = pickerItems((await agent.get('/pages').expect(200)).text);
    const bakery = items.find((i) => i.name === 'Lovelace Analytical Bakery')!;
    expect(images(bakery.item).filter((img) => img.class === 'avatar')).toHaveLength(1);
    expect(findAll(bakery.item, 'span').map(textOf)).toContainEqual(expect.stringMatching(/ followers?$/));
    expect(textOf(bakery.item)).toContain('Your role: Admin');
  });
});
