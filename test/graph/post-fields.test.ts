import { feedSchema, FEED_FIELDS_PARAM, pageDetailsSchema, PAGE_FIELDS_PARAM } from '../../src/graph/schemas';

/** The post and page fields the view shows (docs/provider-interface.md#feed-fields), parsed as untrusted. */
describe('the feed and page field shapes', () => {
  it('when a post has every field in the provider\u2019s shape, then all of it is kept', () => {
    const post = {
      id: '1_2',
      created_time: '2026-10-01T12:00:00+0000',
      message: 'hi',
      full_picture: 'https://scontent.xx.fbcdn.net/a.jpg',
      permalink_url: 'https://www.facebook.com/1/posts/2',
      attachments: {
        data: [
          {
            type: 'album',
            title: 'Week',
            url: 'https://www.facebook.com/media/set/?set=a.1',
            media: { image: { src: 'https://scontent.xx.fbcdn.net/a.jpg', width: 720, height: 540 } },
            subattachments: { data: [{ media: { image: { src: 'https://scontent.xx.fbcdn.net/b.jpg' } } }] },
          },
        ],
      },
      shares: { count: 4 },
      reactions: { data: [], summary: { total_count: 18 } },
      comments: { data: [], summary: { total_count: 3 } },
    };
    // The edges' empty `data` (asked with limit 0) is not read: only the counts are.
    expect(feedSchema.parse({ data: [post] }).data[0]).toEqual({
      ...post,
      reactions: { summary: { total_count: 18 } },
      comments: { summary: { total_count: 3 } },
    });
  });

  it('when optional parts have the wrong shape, then those parts are dropped and the post stays', () => {
    const parsed = feedSchema.parse({
      data: [
        {
          id: '1_2',
          created_time: '2026-10-01T12:00:00+0000',
          full_picture: 42,
          permalink_url: { href: 'x' },
          attachments: { data: ['junk', { type: 'share', title: 'Fine', url: 'https://a.example/' }] },
          shares: { count: -1 },
          reactions: { summary: { total_count: 'many' } },
          comments: 'none',
        },
      ],
    }).data[0]!;
    expect(parsed).toEqual({
      id: '1_2',
      created_time: '2026-10-01T12:00:00+0000',
      attachments: { data: [undefined, { type: 'share', title: 'Fine', url: 'https://a.example/' }] },
    });
  });

  it('when page picture, cover or followers are malformed, then only they are dropped', () => {
    const parsed = pageDetailsSchema.parse({
      id: '9',
      name: 'Bakery',
      followers_count: '1,907',
      picture: { data: { url: 7 } },
      cover: { source: null },
      link: 'https://www.facebook.com/9',
    });
    expect(parsed).toEqual({ id: '9', name: 'Bakery', link: 'https://www.facebook.com/9' });
  });

  it('when the fields are asked for, then the counts are asked for alone (limit 0) and the picture large', () => {
    expect(FEED_FIELDS_PARAM).toContain('reactions.summary(total_count).limit(0)');
    expect(FEED_FIELDS_PARAM).toContain('comments.summary(total_count).limit(0)');
    expect(PAGE_FIELDS_PARAM).toContain('picture.type(large)');
  });
});
