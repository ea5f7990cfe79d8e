import { providerWeb, formatTime } from '../../src/pages/view-text';
import {
  formatAddress,
  formatEmails,
  formatHours,
  formatParking,
  formatWebsite,
  toPageView,
} from '../../src/pages/page-view';
import { toFeedView, toPostView } from '../../src/pages/feed-view';
import { Locales } from '../../src/i18n/catalogs';

/** Formatting as docs/architecture.md#views describes it. */
describe('page view model', () => {
  it('when hours have two intervals on a day and a closed day, then a week table in order', () => {
    const rows = formatHours({
      mon_1_open: '09:00',
      mon_1_close: '17:00',
      sat_1_open: '10:00',
      sat_1_close: '14:00',
      sat_2_open: '18:00',
      sat_2_close: '23:00',
    });
    expect(rows).toEqual([
      { day: 'Monday', times: ['09:00–17:00'] },
      { day: 'Tuesday', times: ['Closed'] },
      { day: 'Wednesday', times: ['Closed'] },
      { day: 'Thursday', times: ['Closed'] },
      { day: 'Friday', times: ['Closed'] },
      { day: 'Saturday', times: ['10:00–14:00', '18:00–23:00'] },
      { day: 'Sunday', times: ['Closed'] },
    ]);
  });
  it('when hours are missing, empty or hold no known day, then nothing (the empty state)', () => {
    expect(formatHours(undefined)).toBeUndefined();
    expect(formatHours({})).toBeUndefined();
    expect(formatHours({ xyz_1_open: '09:00' })).toBeUndefined();
  });
  it('when a location is complete, then it reads as an address', () => {
    expect(
      formatAddress({
        street: '12 Babbage Row',
        city: 'London',
        state: 'Greater London',
        zip: 'N1 9GU',
        country: 'United Kingdom',
      }),
    ).toEqual(['12 Babbage Row', 'N1 9GU London, Greater London', 'United Kingdom']);
  });
  it('when a location has only coordinates, then they are shown; when nothing, the empty state', () => {
    expect(formatAddress({ latitude: 51.5, longitude: -0.12 })).toEqual(['51.50000, -0.12000']);
    expect(formatAddress({})).toBeUndefined();
    expect(formatAddress(undefined)).toBeUndefined();
  });
  it('when parking flags are set, then they read as words', () => {
    expect(formatParking({ lot: true, street: true, valet: false })).toBe('Parking lot and street parking');
    expect(formatParking({ lot: false, street: false, valet: true })).toBe('Valet parking');
    expect(formatParking({ lot: true, street: true, valet: true })).toBe(
      'Parking lot, street parking and valet parking',
    );
    expect(formatParking({ lot: false, street: false, valet: false })).toBe('No parking');
    expect(formatParking(undefined)).toBeUndefined();
  });
  it('when the website is http(s), then it is a link; otherwise plain text', () => {
    expect(formatWebsite('https://example.com/x')).toEqual({
      text: 'https://example.com/x',
      href: 'https://example.com/x',
    });
    expect(formatWebsite('javascript:alert(1)')).toEqual({ text: 'javascript:alert(1)' });
    expect(formatWebsite('ftp://example.com')).toEqual({ text: 'ftp://example.com' });
    expect(formatWebsite('www.example.com')).toEqual({ text: 'www.example.com' });
    expect(formatWebsite('  ')).toBeUndefined();
  });
  it('when emails are given, then only plausible addresses become mailto links', () => {
    expect(formatEmails(['hello@example.com', 'not an email', 'x@y.z?subject=<b>'])).toEqual([
      { address: 'hello@example.com', href: 'mailto:hello@example.com' },
    ]);
  });
  it('when a post time comes in the provider format, then readable text and an ISO datetime', () => {
    expect(formatTime('2026-10-01T12:30:00+0000')).toEqual({
      iso: '2026-10-01T12:30:00.000Z',
      text: '1 Oct 2026, 12:30 UTC',
    });
    expect(formatTime('nonsense')).toEqual({ text: 'Unknown time' });
  });
  it('when the same post time is shown in English and then in German, then each reads in its own language', () => {
    const locales = new Locales();
    expect(formatTime('2026-10-01T12:30:00+0000', locales.get('en')).text).toBe('1 Oct 2026, 12:30 UTC');
    expect(formatTime('2026-10-01T12:30:00+0000', locales.get('de')).text).toMatch(/^1\. Okt\. 2026/);
    expect(formatTime('nonsense', locales.get('de')).text).not.toBe('Unknown time');
  });
  it('when a post has only a story, then the story is what it says, with no empty text; multi-line text keeps its lines', () => {
    expect(
      toPostView({ id: '1_2', created_time: '2026-10-01T12:30:00+0000', story: 'Ada updated the cover photo.' }),
    ).toMatchObject({
      isStory: true,
      story: 'Ada updated the cover photo.',
      lines: [],
    });
    expect(
      toPostView({
        id: '1_4',
        created_time: '2026-10-01T12:30:00+0000',
        story: 'Ada is feeling thankful.',
        message: 'Thank you!',
      }),
    ).toMatchObject({ isStory: false, story: 'Ada is feeling thankful.', lines: [[{ text: 'Thank you!' }]] });
    expect(toPostView({ id: '1_3', created_time: '2026-10-01T12:30:00+0000', message: 'a\nb' })).toMatchObject({
      isStory: false,
      lines: [[{ text: 'a' }], [{ text: 'b' }]],
    });
  });
  it('when the provider says there is a next page, then the after cursor is offered; otherwise not', () => {
    expect(toFeedView({ data: [], paging: { cursors: { after: 'A', before: 'B' }, next: true } }, 'older')).toEqual({
      posts: [],
      after: 'A',
      before: undefined,
      end: false,
    });
    expect(toFeedView({ data: [], paging: { cursors: { after: 'A', before: 'B' } } }, 'older')).toEqual({
      posts: [],
      after: undefined,
      before: undefined,
      end: false,
    });
  });
  it('when the first page carries previous, then no Newer posts there; on an older page, yes', () => {
    const feed = { data: [], paging: { cursors: { after: 'A', before: 'B' }, previous: true } };
    expect(toFeedView(feed, 'first').before).toBeUndefined();
    expect(toFeedView(feed, 'older').before).toBe('B');
  });
  it('when attire is Unspecified and fields are missing, then they are left empty', () => {
    const view = toPageView({ id: '9', attire: 'Unspecified' }, '');
    expect(view).toMatchObject({
      id: '9',
      name: 'Page 9',
      attire: undefined,
      about: undefined,
      hours: undefined,
      emails: [],
    });
  });
});

/** docs/provider-interface.md#web-links */
describe('providerWeb', () => {
  it('when the base is the provider’s own (outside demo mode), then its links are as the provider gave them', () => {
    const web = providerWeb('https://www.facebook.com');
    expect(web('https://www.facebook.com/1122334455667788/posts/3')).toBe(
      'https://www.facebook.com/1122334455667788/posts/3',
    );
  });

  it('when the base is the emulator’s, then the provider’s web links move onto it, path and query kept, and other links stay', () => {
    const web = providerWeb('http://localhost:8081');
    expect(web('https://www.facebook.com/1122334455667788/posts/3?x=1')).toBe(
      'http://localhost:8081/1122334455667788/posts/3?x=1',
    );
    expect(web('https://example.org/www.facebook.com/1')).toBe('https://example.org/www.facebook.com/1');
    expect(web('https://l.facebook.com/l.php?u=x')).toBe('https://l.facebook.com/l.php?u=x');
  });
});
