import { SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';
import { Locales } from '../../src/i18n/catalogs';
import type { LocaleTag } from '../../src/i18n/locales';
import { toPageView } from '../../src/pages/page-view';
import { connectedAgent, signedInAgent } from '../support/flow';
import { useStack } from '../support/stack';
import { visibleText } from '../support/words';
import { find, textOf } from '../support/dom';

const locales = new Locales();

/** Words a person reads, in each language's product vocabulary (docs/architecture.md#languages). */
describe('wording', () => {
  it('when a Page left its bio empty, then the line names it in people’s words, not the field’s', () => {
    const view = toPageView({ id: '9', name: 'N', about: 'A', location: { city: 'London' } }, '');
    expect(view.missing).toBe('No introduction, dress code, parking, opening hours, email or website given.');
    expect(view.missing).not.toMatch(/\bbio\b|attire/);
  });

  it.each([
    ['en', 'Casual', 'Casual'],
    ['en', 'Dressy', 'Dressy'],
    ['de', 'Casual', 'Leger'],
    ['de', 'Dressy', 'Elegant'],
    ['fr', 'Dressy', 'Habillée'],
    ['es', 'Casual', 'Informal'],
    ['pt-BR', 'Dressy', 'Social'],
    ['ar', 'Casual', 'غير رسمي'],
    ['ja', 'Dressy', 'フォーマル'],
  ] as [LocaleTag, string, string][])(
    'when the provider gives attire from its closed set, then %s shows %s as %s',
    (tag, attire, shown) => {
      expect(toPageView({ id: '9', attire }, '', { locale: locales.get(tag) }).attire).toBe(shown);
    },
  );

  it('when the provider gives attire outside its documented set, then it is shown as given', () => {
    expect(toPageView({ id: '9', attire: 'Black tie' }, '', { locale: locales.get('de') }).attire).toBe('Black tie');
  });

  it('when German names the viewers chart, then not “Zuschauer” (an audience of a show)', () => {
    expect(locales.get('de').t('insights.viewers.title')).not.toMatch(/Zuschauer/);
    expect(locales.get('de').t('insights.viewers.total', { count: 3 })).not.toMatch(/Zuschauer/);
  });

  it.each([
    ['en', /^12 daily viewers$/],
    ['de', /^12 tägliche Betrachter$/],
    ['fr', /^12 spectateurs quotidiens$/],
    ['es', /^12 espectadores diarios$/],
    ['pt-BR', /^12 espectadores diários$/],
    ['ja', /^延べ閲覧者12人$/],
  ] as [LocaleTag, RegExp][])(
    'when %s gives the viewers summed over the days, then it names them daily viewers, so they do not read as reach',
    (tag, words) => {
      expect(locales.get(tag).t('insights.viewers.total', { count: 12 })).toMatch(words);
    },
  );
});

describe('wording on the screens', () => {
  const stack = useStack();

  it('when a person with no Pages opens the picker, then nobody tells them to select “the Page” in a list', async () => {
    const agent = await signedInAgent(stack, { user: SEED_IDS.users.alan });
    const text = visibleText((await agent.get('/pages').expect(200)).text);
    expect(text).toContain('You manage no Pages that Pagelight can see');
    expect(text).not.toMatch(/select the Page in the list/);
  });

  it('when a post with comments is opened, then the comments’ heading gives the count once', async () => {
    const bakery = SEED_IDS.pages.bakery;
    const post = TEST_SEED.pages.find((p) => p.id === bakery)!.feed[0]!.id;
    const agent = await connectedAgent(stack, bakery);
    const html = (await agent.get(`/pages/${bakery}/posts/${post}`).expect(200)).text;
    expect(textOf(find(html, { id: 'comments-title' })!)).toBe('3 comments');
  });
});
