import { parse } from '@formatjs/icu-messageformat-parser';
import { CATALOGS, Locales } from '../../src/i18n/catalogs';
import { LANGUAGES } from '../../src/i18n/locales';

/** docs/architecture.md#languages: one ICU catalog per language, each saying what English says. */

type Tag = keyof typeof CATALOGS;
const TAGS = Object.keys(CATALOGS) as Tag[];
const english = CATALOGS.en;

/** What a message needs from its caller: each argument with its kind, each tag, and the plural categories used. */
interface Shape {
  args: Set<string>;
  tags: Set<string>;
  categories: Set<string>;
}

interface Element {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
}

const KIND: Record<number, string> = { 1: 'text', 2: 'number', 3: 'date', 4: 'time', 5: 'select', 6: 'plural' };

function shapeOf(message: string): Shape {
  const shape: Shape = { args: new Set(), tags: new Set(), categories: new Set() };
  const walk = (elements: Element[]) => {
    for (const el of elements) {
      if (KIND[el.type]) shape.args.add(`${el.value}:${KIND[el.type] === 'text' ? 'text' : KIND[el.type]}`);
      if (el.type === 8) shape.tags.add(el.value!);
      if (el.type === 6) for (const category of Object.keys(el.options!)) shape.categories.add(category);
      if (el.options) for (const option of Object.values(el.options)) walk(option.value);
      if (el.children) walk(el.children);
    }
  };
  walk(parse(message));
  return shape;
}

/** Select keys must match English's where they are chosen by the code; a plural's categories are the language's own. */
function selectOptions(message: string): string[] {
  const out: string[] = [];
  const walk = (elements: Element[]) => {
    for (const el of elements) {
      if (el.type === 5) out.push(`${el.value}:${Object.keys(el.options!).sort().join('|')}`);
      if (el.options) for (const option of Object.values(el.options)) walk(option.value);
      if (el.children) walk(el.children);
    }
  };
  walk(parse(message));
  return out.sort();
}

/** The tags messages wrap words in beyond the built-in ones, as the views name them. */
const TAGS_USED = {
  hidden: ['span', {}],
  settings: ['a', { href: '/' }],
  time: ['time', {}],
  when: ['time', {}],
} as const;

describe('the message catalogs', () => {
  it('when the languages are listed, then each has a catalog and every catalog is a language', () => {
    expect(TAGS.sort()).toEqual(LANGUAGES.map((l) => l.tag).sort());
  });

  it.each(TAGS)(
    'when the %s catalog is read, then it has exactly the keys English has, none missing or extra',
    (tag) => {
      expect(Object.keys(CATALOGS[tag]).sort()).toEqual(Object.keys(english).sort());
    },
  );

  it.each(TAGS)(
    'when the %s catalog is parsed, then each message takes the arguments and tags English takes',
    (tag) => {
      const rules = new Intl.PluralRules(tag).resolvedOptions().pluralCategories;
      const differences: string[] = [];
      for (const [key, source] of Object.entries(english)) {
        const theirs = (CATALOGS[tag] as Record<string, string>)[key]!;
        const want = shapeOf(source);
        const got = shapeOf(theirs);
        if ([...want.args].sort().join() !== [...got.args].sort().join())
          differences.push(`${key}: arguments ${[...got.args].join()} ≠ ${[...want.args].join()}`);
        if ([...want.tags].sort().join() !== [...got.tags].sort().join())
          differences.push(`${key}: tags ${[...got.tags].join()} ≠ ${[...want.tags].join()}`);
        if (selectOptions(source).join() !== selectOptions(theirs).join())
          differences.push(`${key}: select options differ`);
        for (const category of got.categories)
          if (!category.startsWith('=') && !rules.includes(category as Intl.LDMLPluralRule))
            differences.push(`${key}: "${category}" is no plural category of ${tag}`);
        if (got.categories.size > 0 && !got.categories.has('other')) differences.push(`${key}: no "other"`);
        // ICU gives tags and arguments one namespace: a tag named like an argument would swallow it.
        for (const arg of got.args)
          if (got.tags.has(arg.split(':')[0]!)) differences.push(`${key}: <${arg}> is also an argument`);
      }
      expect(differences).toEqual([]);
    },
  );

  it.each(TAGS)(
    'when a %s message is formatted with every argument, then it reads without ICU syntax left over',
    (tag) => {
      const locale = new Locales().get(tag);
      for (const key of Object.keys(english) as (keyof typeof english)[]) {
        const text = locale.html(
          key,
          {
            count: 2,
            name: 'N',
            title: 'T',
            what: 'posts',
            reason: 'other',
            error: 'other',
            where: 'memory',
            permission: 'p',
            list: 'l',
            wait: 'w',
            id: '1',
            time: '9',
            from: 1,
            to: 2,
            max: 3,
            minutes: 5,
            hours: 2,
            text: 't',
            alt: 'a',
            confirmation: 'c',
            date: 'd',
            idle: 'i',
            variable: 'V',
            contact: 'C',
            deauthorize: 'x',
            deletion: 'y',
            status: 'z',
            pages: 'p',
            accounts: 'a',
            permissions: 'p',
            portfolios: 'listed',
            query: 'q',
            shown: '1',
            total: 2,
            role: 'r',
            author: 'a',
            why: 'w',
            max2: 1,
            first: 'f',
            last: 'l',
            days: 'some',
            day: 'd',
            names: 'n',
            share: 0.12,
            n: 1,
            pkce: 'on',
            missing: 'both',
          },
          TAGS_USED,
        ).html;
        expect([key, text]).not.toEqual([key, expect.stringMatching(/[{}]/)]);
      }
    },
  );
});

/** Plurals read as each language makes them: Arabic has six forms, Japanese one. */
describe('plurals', () => {
  const locales = new Locales();
  const followers = (tag: Tag, n: number) => locales.get(tag).t('count.followers', { count: n });

  it.each([
    [0, 'لا متابعين'],
    [1, 'متابع واحد'],
    [2, 'متابعان'],
    [5, '5 متابعين'],
    [11, '11 متابعًا'],
    [100, '100 متابع'],
  ])('when an Arabic Page has %i followers, then it reads "%s"', (n, words) => {
    expect(followers('ar', n)).toBe(words);
  });

  it.each([
    ['en', ['0 followers', '1 follower', '2 followers', '5 followers', '11 followers', '100 followers']],
    ['de', ['0 Follower', '1 Follower', '2 Follower', '5 Follower', '11 Follower', '100 Follower']],
    ['fr', ['0 follower', '1 follower', '2 followers', '5 followers', '11 followers', '100 followers']],
    ['es', ['0 seguidores', '1 seguidor', '2 seguidores', '5 seguidores', '11 seguidores', '100 seguidores']],
    ['pt-BR', ['0 seguidores', '1 seguidor', '2 seguidores', '5 seguidores', '11 seguidores', '100 seguidores']],
    ['ja', ['フォロワー0人', 'フォロワー1人', 'フォロワー2人', 'フォロワー5人', 'フォロワー11人', 'フォロワー100人']],
  ] as const)(
    'when a %s Page has 0, 1, 2, 5, 11 and 100 followers, then each reads in its plural form',
    (tag, words) => {
      expect([0, 1, 2, 5, 11, 100].map((n) => followers(tag, n))).toEqual(words);
    },
  );

  it('when counts are large, then they are grouped as the language groups them', () => {
    expect(followers('en', 12408)).toBe('12,408 followers');
    expect(followers('de', 12408)).toBe('12.408 Follower');
    expect(followers('fr', 12408)).toBe('12\u202f408 followers');
  });

  it.each(TAGS)(
    'when the live notice is given to the %s script, then it has a form for each plural category, the count as #',
    (tag) => {
      const locale = locales.get(tag);
      const forms = locale.pluralForms('live.newPosts');
      expect(Object.keys(forms).sort()).toEqual(
        [...new Intl.PluralRules(tag).resolvedOptions().pluralCategories].sort(),
      );
      expect(forms.other).toContain('#');
      expect(locale.pluralForms('live.newPosts')).toBe(forms);
    },
  );
});
