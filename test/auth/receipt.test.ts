import { englishLocale } from '../../src/i18n/catalogs';

/** The receipt's two lines, as the deletion page says them in English (views/deletion.ejs). */
const receiptLines = (sessions: number, pages: number): string[] => [
  englishLocale().t('deletion.sessions', { count: sessions }),
  englishLocale().t('deletion.pages', { count: pages }),
];

/** docs/architecture.md#provider-callbacks: the deletion receipt tells what both callbacks did. */
describe('the data-deletion receipt in words', () => {
  it('when several sessions and Pages were ended, then it counts them in words', () => {
    expect(receiptLines(3, 2)).toEqual([
      'ended your 3 signed-in sessions on every server, with the access tokens they held;',
      'dropped the cached details and posts of the 2 Pages you had connected.',
    ]);
  });

  it('when one of each, then no "1 sessions"', () => {
    expect(receiptLines(1, 1)).toEqual([
      'ended your signed-in session on every server, with the access tokens it held;',
      'dropped the cached details and posts of the Page you had connected.',
    ]);
  });

  it('when nothing was left to end, then it says so instead of "0 sessions … of the 0 pages"', () => {
    const lines = receiptLines(0, 0).join(' ');
    expect(lines).toContain('found no signed-in session of yours left to end');
    expect(lines).toContain('held no cached details or posts of a Page of yours');
    expect(lines).not.toMatch(/\b0\b/);
  });
});
