import { RenderedHtml } from '../../src/html';
import { Locales } from '../../src/i18n/catalogs';
import { attr, find, textOf } from '../support/dom';

/** How a message is written with its values (`Locale`'s ICU writer, docs/architecture.md#languages). */
describe('a message with values', () => {
  const locales = new Locales();
  const en = locales.get('en');

  it('when a plural names an exact count (=0), then that option is chosen before the plural rule', () => {
    expect(en.t('deletion.sessions', { count: 0 })).toMatch(/^found no signed-in session/);
    expect(en.t('deletion.sessions', { count: 3 })).toMatch(/^ended your 3 signed-in sessions/);
  });

  it('when a count is large, then # in the plural is written in the language’s digits and grouping', () => {
    expect(locales.get('de').t('count.reactions', { count: 12408 })).toBe('12.408 Reaktionen');
  });

  it('when a number has a percent skeleton, then it is scaled and written as a percentage', () => {
    expect(en.t('insights.change.up', { share: 0.12 })).toBe('Up 12% on the 28 days before.');
    expect(locales.get('fr').t('insights.change.up', { share: 0.12 })).toMatch(/12\s%/);
  });

  it('when a message is HTML, then text values and attribute values are escaped and its tag is the element given', () => {
    const html = en.html('post.openContext', { time: '<b>1 Oct</b>' }, { when: ['time', { datetime: '"2026' }] }).html;
    const time = find(html, 'time');
    expect(textOf(html)).toBe(': open the post of <b>1 Oct</b>');
    expect(find(html, 'b')).toBeUndefined();
    expect(time && attr(time, 'datetime')).toBe('"2026');
  });

  it('when a value is HTML the app made, then it is printed as it is', () => {
    const html = en.html('post.openContext', { time: new RenderedHtml('<b>1 Oct</b>') }, { when: ['span'] }).html;
    expect(textOf(find(html, 'b')!)).toBe('1 Oct');
  });

  it('when a value is given but empty at run time (an optional field), then it prints nothing, not "undefined"', () => {
    const values = { time: undefined } as unknown as { time: string };
    expect(en.t('hours.from', values)).toBe('from ');
    expect(textOf(en.html('post.openContext', values, { when: ['span'] }).html)).toBe(': open the post of');
  });

  it('when a value the message needs is missing, then writing it fails, naming the message and the value', () => {
    expect(() => en.t('count.reactions')).toThrow('message count.reactions: no value given for {count}');
  });

  it('when a message with a tag is asked for as text, then it fails: markup belongs in html', () => {
    expect(() => en.t('post.openContext', { time: '1 Oct' })).toThrow('message post.openContext: no element given for');
  });
});

/** Days and numbers are written once and kept (`Locale.day`, `Locale.number`): what is kept must read as written. */
describe('days and numbers in a language', () => {
  const locales = new Locales();

  it('when two moments fall on the same UTC day, then they read as that day; the next day reads as itself', () => {
    const en = locales.get('en');
    const morning = Date.UTC(2026, 9, 1, 7);
    expect(en.day(morning, 'long')).toBe('1 Oct 2026');
    expect(en.day(Date.UTC(2026, 9, 1, 23, 59), 'long')).toBe('1 Oct 2026');
    expect(en.day(new Date(morning), 'short')).toBe('1 Oct');
    expect(en.day(Date.UTC(2026, 9, 2), 'long')).toBe('2 Oct 2026');
  });

  it('when the same day is asked of each language, then each writes it in its own words', () => {
    const at = Date.UTC(2026, 9, 1, 7);
    expect(locales.get('de').day(at, 'long')).toBe('1. Okt. 2026');
    expect(locales.get('en').day(at, 'long')).toBe('1 Oct 2026');
    expect(locales.get('ar').day(at, 'short')).not.toBe(locales.get('en').day(at, 'short'));
  });

  it('when more days are asked than are kept, then every one still reads right', () => {
    const en = locales.get('en');
    const start = Date.UTC(2020, 0, 1);
    const day = 24 * 60 * 60 * 1000;
    const intl = new Intl.DateTimeFormat(en.intl, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    const days = Array.from({ length: 1500 }, (_, i) => start + i * day);
    expect(days.map((at) => en.day(at, 'long'))).toEqual(days.map((at) => intl.format(at)));
    expect(en.day(start, 'long')).toBe('1 Jan 2020');
  });

  it('when a small count is written twice, or a large one, then each reads in the language’s digits', () => {
    expect(locales.get('de').number(999)).toBe('999');
    expect(locales.get('de').number(999)).toBe('999');
    expect(locales.get('de').number(12408)).toBe('12.408');
    expect(locales.get('en').number(2.5)).toBe('2.5');
  });
});
