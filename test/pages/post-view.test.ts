import { englishLocale } from '../../src/i18n/catalogs';
import type { Post } from '../../src/graph/schemas';
import { imageFilter } from '../../src/pages/images';
import { linkDomain, linkify, splitLong, SEE_MORE_CHARS } from '../../src/pages/view-text';
import { toFeedView, toPostView } from '../../src/pages/feed-view';

/** Posts as people know them (docs/architecture.md#views). */
const CDN = 'https://scontent.example-cdn.net';
const images = imageFilter([CDN]);
const post = (extra: Partial<Post>): Post => ({ id: '1_2', created_time: '2026-10-01T12:00:00+0000', ...extra });
/** The view of a post whose picture is `picture` and whose first attachment is `attachment`. */
const viewWithAttachment = (picture: string, attachment: NonNullable<Post['attachments']>['data'][number]) =>
  toPostView(post({ full_picture: picture, attachments: { data: [attachment] } }), { images });

describe('linkify', () => {
  it('when text holds http and https URLs, then they become links whose text is the normalised URL', () => {
    expect(linkify('See https://Example.COM/a?b=1 and http://x.example')).toEqual([
      { text: 'See ' },
      { text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { text: ' and ' },
      { text: 'http://x.example/', href: 'http://x.example/' },
    ]);
  });

  it('when a URL ends a sentence or sits in brackets, then the punctuation stays text', () => {
    expect(linkify('Go to https://a.example/x.')).toEqual([
      { text: 'Go to ' },
      { text: 'https://a.example/x', href: 'https://a.example/x' },
      { text: '.' },
    ]);
    expect(linkify('(see https://a.example/wiki/Loaf_(bread)), ok')).toEqual([
      { text: '(see ' },
      { text: 'https://a.example/wiki/Loaf_(bread)', href: 'https://a.example/wiki/Loaf_(bread)' },
      { text: '), ok' },
    ]);
  });

  it('when text holds javascript:, data:, ftp: or a backslashed https:\\\\ address, then nothing becomes a link', () => {
    for (const line of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'ftp://files.example/a',
      'https:\\\\evil.example',
      'mailto:a@b.example',
    ]) {
      expect(linkify(line)).toEqual([{ text: line }]);
    }
  });

  it('when a URL would carry markup, then the markup is left outside the link as text', () => {
    const segments = linkify('https://a.example/"><script>x</script>');
    expect(segments[0]).toEqual({ text: 'https://a.example/', href: 'https://a.example/' });
    expect(
      segments
        .slice(1)
        .map((s) => s.text)
        .join(''),
    ).toBe('"><script>x</script>');
    expect(segments.slice(1).every((s) => s.href === undefined)).toBe(true);
  });

  it('when a line is empty, then one empty run (the paragraph stays)', () => {
    expect(linkify('')).toEqual([{ text: '' }]);
  });
});

describe('counts and long text', () => {
  it('when counts are formatted, then as people read numbers, singular for one', () => {
    const english = englishLocale();
    expect(english.t('count.followers', { count: 12408 })).toBe('12,408 followers');
    expect(english.t('count.followers', { count: 1 })).toBe('1 follower');
    expect(english.t('count.shares', { count: 0 })).toBe('0 shares');
  });

  it('when text is long, then it splits at a word near the bound; short text is not split', () => {
    expect(splitLong(['short'])).toBeUndefined();
    const words = 'word '.repeat(200).trim();
    const split = splitLong([words])!;
    expect(split.head[0]!.length).toBeLessThanOrEqual(SEE_MORE_CHARS);
    expect(split.head[0]!.endsWith('word')).toBe(true);
    expect(`${split.head[0]} ${split.rest[0]}`).toBe(words);
    const lines = Array.from({ length: 9 }, (_, i) => `line ${i}`);
    expect(splitLong(lines)).toEqual({ head: lines.slice(0, 5), rest: lines.slice(5) });
  });
});

describe('a post view', () => {
  it('when the post has reactions, comments and shares, then the non-zero ones are counted; permalink only if http(s)', () => {
    const view = toPostView(
      post({
        reactions: { summary: { total_count: 1234 } },
        comments: { summary: { total_count: 0 } },
        shares: { count: 1 },
        permalink_url: 'https://www.facebook.com/1/posts/2',
      }),
    );
    expect(view.counts).toEqual(['1,234 reactions', '1 share']);
    expect(view.permalink).toBe('https://www.facebook.com/1/posts/2');
    expect(toPostView(post({ permalink_url: 'javascript:alert(1)' })).permalink).toBeUndefined();
  });

  it('when a photo is on an allowed origin, then it is shown with the attachment size; on any other origin, not at all', () => {
    const src = `${CDN}/v/photo.jpg?oh=1&oe=2`;
    const media = { image: { src, width: 720, height: 540 } };
    const view = toPostView(post({ full_picture: src, attachments: { data: [{ type: 'photo', media }] } }), { images });
    expect(view.picture).toEqual({
      src,
      width: 720,
      height: 540,
      alt: 'Photo in this post',
      lazy: true,
      cropped: false,
    });
    for (const elsewhere of [
      'https://evil.example/photo.jpg',
      'http://scontent.example-cdn.net/photo.jpg',
      'javascript:alert(1)',
      '/relative.jpg',
    ]) {
      expect(toPostView(post({ full_picture: elsewhere }), { images }).picture).toBeUndefined();
    }
    // Without a size from the provider, a fixed box, cropped.
    expect(toPostView(post({ full_picture: src }), { images }).picture).toMatchObject({ cropped: true, width: 720 });
  });

  it('when the first attachment is an album of 4, then its first photo shows with "+3" and says it is one of 4', () => {
    const photo = (n: number) => ({ media: { image: { src: `${CDN}/a${n}.jpg`, width: 720, height: 540 } } });
    const view = viewWithAttachment(`${CDN}/a1.jpg`, {
      type: 'album',
      title: 'Week',
      media: photo(1).media,
      subattachments: { data: [1, 2, 3, 4].map(photo) },
    });
    expect(view.extra).toBe('+3');
    expect(view.picture?.alt).toBe('First of 4 photos in the album “Week”');
  });

  it('when the first attachment is a shared link, then a preview with its title and domain (unwrapped from the redirector)', () => {
    const view = viewWithAttachment(`${CDN}/link.jpg`, {
      type: 'share',
      title: 'Notes on the loaf',
      url: 'https://l.facebook.com/l.php?u=https%3A%2F%2Fwww.bakery.example%2Fblog&h=x',
    });
    expect(view.picture).toBeUndefined();
    expect(view.preview).toMatchObject({
      title: 'Notes on the loaf',
      domain: 'bakery.example',
      href: 'https://l.facebook.com/l.php?u=https%3A%2F%2Fwww.bakery.example%2Fblog&h=x',
      image: { src: `${CDN}/link.jpg`, alt: '' },
    });
    expect(linkDomain('javascript:alert(1)')).toBeUndefined();
    expect(toPostView(post({ attachments: { data: [{ type: 'share', url: 'javascript:x' }] } })).preview).toEqual({
      title: 'Shared link',
    });
  });
});

describe('feed paging', () => {
  const twentyFive = { data: Array.from({ length: 25 }, (_, i) => post({ id: `1_${i}` })) };
  const paging = (next: boolean) => ({
    cursors: { after: 'A', before: 'B' },
    previous: true,
    ...(next ? { next: true } : {}),
  });

  it('when the first page is shown, then "Posts 1–25" and an older link carrying offset 25', () => {
    const view = toFeedView({ ...twentyFive, paging: paging(true) }, 'first', { pageId: '9' });
    expect(view.position).toBe('Posts 1–25');
    expect(view.older).toBe('/pages/9/feed?after=A&offset=25');
    expect(view.newer).toBeUndefined();
    expect(view.end).toBe(false);
  });

  it('when the second page is shown, then "Posts 26–50", and Newer posts is the page view itself', () => {
    const view = toFeedView({ ...twentyFive, paging: paging(true) }, 'older', { pageId: '9', offset: 25 });
    expect(view.position).toBe('Posts 26–50');
    expect(view.newer).toBe('/pages/9');
    expect(view.older).toBe('/pages/9/feed?after=A&offset=50');
  });

  it('when a later page is shown, then Newer posts carries the position back; without an offset, no position', () => {
    const view = toFeedView({ ...twentyFive, paging: paging(true) }, 'older', { pageId: '9', offset: 75 });
    expect(view.newer).toBe('/pages/9/feed?before=B&offset=50');
    const unknown = toFeedView({ ...twentyFive, paging: paging(true) }, 'older', { pageId: '9' });
    expect(unknown.position).toBeUndefined();
    expect(unknown.newer).toBe('/pages/9/feed?before=B');
  });

  it('when the provider has nothing older, then the page says it ends with the first post', () => {
    const view = toFeedView({ ...twentyFive, paging: paging(false) }, 'older', { pageId: '9', offset: 25 });
    expect(view.end).toBe(true);
    expect(view.older).toBeUndefined();
  });
});
