import { englishLocale } from '../src/i18n/catalogs';
import { PROVIDER_NAME, permissionWords, waitWords } from '../src/words';

const english = englishLocale();

describe('words people read', () => {
  it.each([
    [5, 'a few seconds'],
    [30, 'about a minute'],
    [60, 'about a minute'],
    [120, 'about 2 minutes'],
    [300, 'about 5 minutes'],
    [3600, 'about 60 minutes'],
    [7200, 'about 2 hours'],
  ])('when the wait is %i s, then it reads "%s"', (seconds, words) => {
    expect(waitWords(english, seconds)).toBe(words);
  });

  it('when a permission is known, then it reads as what Pagelight may do; unknown ones are never named', () => {
    expect(permissionWords(english, 'pages_read_engagement')).toBe("Read your Page's posts and details");
    expect(permissionWords(english, 'pages_show_list')).toBe('See the list of Pages you manage');
    expect(permissionWords(english, 'ads_management')).not.toContain('ads_management');
    expect(permissionWords(english, undefined)).toContain(PROVIDER_NAME);
    expect(permissionWords(english, 'constructor')).not.toContain('function');
  });
});
