/**
 * Pictures, attachments, shares, reactions and comments of some seeded posts
 * (Post reference): added to the posts by their place in the feed, so the
 * feeds keep their order, ids and texts. Image paths live on the emulator's
 * own origin and are served as absolute URLs.
 */
import { mediaPath } from './media/sign';
import type { SeedAttachment, SeedComment, SeedPost } from './seed';

type Media = Pick<SeedPost, 'full_picture' | 'attachments' | 'shares' | 'reactions'> & {
  comments?: Omit<SeedComment, 'id'>[];
};

const photo = (src: string, title?: string): SeedAttachment => ({
  type: 'photo',
  ...(title !== undefined ? { title } : {}),
  media: { image: { src, width: 720, height: 720 } },
});

const SQUARE = (scene: string): string => mediaPath(scene, 720);
const WEEK = ['sourdough', 'croissants', 'cinnamon-buns', 'baguettes', 'focaccia'];

/** Feed index → what that bakery post carries. */
export const BAKERY_MEDIA: Readonly<Record<number, Media>> = {
  // "Fresh sourdough is out of the oven!"
  0: {
    full_picture: SQUARE('sourdough'),
    attachments: [photo(SQUARE('sourdough'))],
    shares: { count: 4 },
    reactions: { like: 12, love: 5, wow: 1 },
    comments: [
      { created_time: '2026-10-01T12:05:00+0000', message: 'Saving one for me!' },
      { created_time: '2026-10-01T12:20:00+0000', message: 'Is the rye back too?' },
      { created_time: '2026-10-01T13:02:00+0000', message: '<b>Best</b> loaf in town' },
    ],
  },
  // "… updated their cover photo."
  1: {
    full_picture: SQUARE('bakery-cover'),
    attachments: [photo(SQUARE('bakery-cover'))],
    reactions: { like: 2 },
  },
  // "<img …> Photo of the week": an album whose photos are subattachments.
  4: {
    full_picture: SQUARE(WEEK[0]!),
    attachments: [
      {
        type: 'album',
        title: 'Photos of the week',
        url: 'https://www.facebook.com/media/set/?set=a.104735298799100',
        media: { image: { src: mediaPath(WEEK[0]!, 720, 540), width: 720, height: 540 } },
        subattachments: WEEK.map((scene, n) => photo(SQUARE(scene), `Week photo ${n + 1}`)),
      },
    ],
    reactions: { like: 30, haha: 2 },
  },
  // "Read more at https://lovelace-bakery.example/blog…": a shared link.
  9: {
    attachments: [
      {
        type: 'share',
        title: 'The bakery blog: notes on the Analytical Loaf',
        description: 'How a loaf follows an algorithm.',
        url: 'https://lovelace-bakery.example/blog?utm=1&x=<b>bold</b>',
        media: { image: { src: mediaPath('rye', 1200, 630), width: 1200, height: 630 } },
        target: { url: 'https://lovelace-bakery.example/blog?utm=1&x=<b>bold</b>' },
      },
    ],
    shares: { count: 1 },
  },
};

export const CAFE_MEDIA: Readonly<Record<number, Media>> = {
  0: {
    reactions: { like: 3, haha: 1 },
    comments: [{ created_time: '2026-10-01T12:30:00+0000', message: 'Grace, you are a legend.' }],
  },
};

/** The feed with each indexed post's media added; comment ids are `<post id>_<n>` like the provider's. */
export function withMedia(feed: SeedPost[], media: Readonly<Record<number, Media>>): SeedPost[] {
  return feed.map((post, i) => {
    const extra = media[i];
    if (extra === undefined) return post;
    const { comments, ...rest } = extra;
    return {
      ...post,
      ...rest,
      ...(comments !== undefined
        ? { comments: comments.map((c, n) => ({ id: `${post.id.split('_')[1] ?? ''}_${1000 + n}`, ...c })) }
        : {}),
    };
  });
}
