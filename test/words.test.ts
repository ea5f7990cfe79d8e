import { englishLocale } from '../src/i18n/catalogs';
import { PROVIDER_NAME, permissionWords, roleWords, waitWords } from '../src/words';

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

/** docs/provider-interface.md#page-roles */
describe('roleWords', () => {
  it.each([
    [['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'], 'Admin'],
    [['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT'], 'Editor'],
    [['ANALYZE', 'ADVERTISE', 'MODERATE'], 'Moderator'],
    [['ANALYZE', 'ADVERTISE'], 'Advertiser'],
    [['ANALYZE'], 'Analyst'],
  ])('when the tasks are %j, then the role reads %s', (tasks, role) => {
    expect(roleWords(english, tasks)).toBe(role);
  });

  it('when no task is one a role is made of, or none is listed, then no role is claimed', () => {
    expect(roleWords(english, ['MESSAGING'])).toBeUndefined();
    expect(roleWords(english, [])).toBeUndefined();
    expect(roleWords(english, undefined)).toBeUndefined();
  });
});
