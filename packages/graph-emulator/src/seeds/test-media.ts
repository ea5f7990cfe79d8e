/**
 * Pictures, attachments, shares, reactions and comments of some seeded posts
 * (Post reference) in the test seed: added to the posts by their place in the
 * feed, so the feeds keep their order, ids and texts.
 */
import { mediaPath } from '../media/sign';
import { photo, square, video, type Media, type SeedCommentText } from './common';
import { SEED_IDS } from './ids';

const WEEK = ['sourdough', 'croissants', 'cinnamon-buns', 'baguettes', 'focaccia'];

/** Thirty comments a quarter of an hour apart, oldest first. */
const QUESTIONS: SeedCommentText[] = Array.from({ length: 30 }, (_, n) => ({
  created_time: `2026-10-0${2 + Math.floor(n / 24)}T${String(n % 24).padStart(2, '0')}:15:00+0000`,
  message: `Question ${n + 1}: what goes into the loaf?`,
}));

/** Feed index → what that bakery post carries. */
export const BAKERY_MEDIA: Readonly<Record<number, Media>> = {
  // "Fresh sourdough is out of the oven!"
  0: {
    full_picture: square('sourdough'),
    attachments: [photo('sourdough')],
    shares: { count: 4 },
    reactions: { like: 12, love: 5, wow: 1 },
    comments: [
      { created_time: '2026-10-01T12:05:00+0000', message: 'Saving one for me!', like_count: 3 },
      {
        created_time: '2026-10-01T12:20:00+0000',
        message: 'Is the rye back too?',
        like_count: 1,
        replies: [
          {
            created_time: '2026-10-01T12:31:00+0000',
            message: 'It is! Recipe notes at https://lovelace-bakery.example/rye.',
            from: { id: SEED_IDS.pages.bakery, name: 'Lovelace Analytical Bakery' },
            like_count: 2,
          },
          { created_time: '2026-10-01T12:40:00+0000', message: 'Then I am coming twice.' },
        ],
      },
      { created_time: '2026-10-01T13:02:00+0000', message: '<b>Best</b> loaf in town' },
    ],
  },
  // "… updated their cover photo.": handed out already expired, so the app's fallback for a
  // picture that fails to load is exercised on the first page (docs/specification.md#image-urls).
  1: {
    full_picture: square('bakery-cover'),
    attachments: [photo('bakery-cover')],
    imageExpired: true,
    reactions: { like: 2 },
  },
  // "<img …> Photo of the week": an album whose photos are subattachments.
  4: {
    full_picture: square(WEEK[0]!),
    attachments: [
      {
        type: 'album',
        title: 'Photos of the week',
        url: 'https://www.facebook.com/media/set/?set=a.104735298799100',
        media: { image: { src: mediaPath(WEEK[0]!, 720, 540), width: 720, height: 540 } },
        subattachments: WEEK.map((scene, n) => photo(scene, `Week photo ${n + 1}`)),
      },
    ],
    reactions: { like: 30, haha: 2 },
  },
  // "Our story, in full.": more comments than one page of them, for "More comments".
  5: { comments: QUESTIONS },
  // "Thank you for 1,843 followers!": a video, its poster and its file.
  7: {
    full_picture: mediaPath('croissants', 720, 405),
    attachments: [video('croissants', 'A thank-you from the bakers')],
    reactions: { like: 40, love: 12, care: 3, haha: 1, wow: 2, sad: 1, angry: 1 },
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
