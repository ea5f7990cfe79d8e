/**
 * What every seed builds with: the provider's timestamp format, post ids,
 * pictures, media added to posts by their place in a feed, opening hours, the
 * bakery's identity, and the seeded people (the same in every seed, so
 * `SEED_IDS.users` always means them).
 */
import { ALL_TASKS } from '../permissions';
import { mediaPath, videoPath } from '../media/sign';
import { extraUsers } from './extra';
import { SEED_IDS } from './ids';
import type { Seed, SeedAttachment, SeedComment, SeedPage, SeedPost, SeedRole, SeedUser } from './types';

export const HOUR = 3_600_000;

/** The provider's timestamp format: ISO 8601 without milliseconds, "+0000". */
export function graphTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}

export type Content = Pick<SeedPost, 'message' | 'story'>;

/**
 * Posts newest first from their texts: ids `<page id>_<post number>` (numbers
 * grow with time), `created_time` from `newest` back by `spacingHours` with a
 * fixed irregularity, so every run answers the same feed.
 */
export function buildFeed(
  pageId: string,
  newest: number,
  contents: Content[],
  spacingHours: number,
  earlierMs: (i: number) => number = (i) => (i % 5) * 17 * 60_000,
): SeedPost[] {
  const total = contents.length;
  return contents.map((content, i) => ({
    id: `${pageId}_${String(900_000_000_000 + (total - i) * 137)}`,
    created_time: graphTime(newest - i * spacingHours * HOUR - earlierMs(i)),
    ...content,
  }));
}

/** Business hours: each post a fixed few hours and minutes before the day's latest time. */
export const daytime = (i: number): number => (i === 0 ? 0 : ((i * 7) % 9) * HOUR + (i % 4) * 13 * 60_000);

/** What a post carries besides its text; comments get their ids from `withMedia`. */
export type Media = Pick<SeedPost, 'full_picture' | 'attachments' | 'shares' | 'reactions' | 'imageExpired'> & {
  comments?: SeedCommentText[];
};

/** A seeded comment before it has an id; its replies likewise. */
export type SeedCommentText = Omit<SeedComment, 'id' | 'replies'> & { replies?: Omit<SeedComment, 'id' | 'replies'>[] };

/** Comment ids are `<post number>_<n>` like the provider's; a reply's follow its parent's. */
export function numberComments(postId: string, comments: readonly SeedCommentText[], first = 1000): SeedComment[] {
  const number = postId.split('_')[1] ?? '';
  return comments.map(({ replies, ...c }, n) => ({
    id: `${number}_${first + n}`,
    ...c,
    ...(replies !== undefined
      ? { replies: replies.map((r, k) => ({ id: `${number}_${first + 5000 + n * 100 + k}`, ...r })) }
      : {}),
  }));
}

/**
 * What a Page manager comes to moderate (docs/reference.md#seeds): spam with a link, an abusive comment and a
 * question still waiting for the Page's answer, in that order, by visitors.
 */
export const MODERATION_TEXTS = Object.freeze({
  spam: 'Make $500 a day from home!!! Click here 👉 https://quick-cash.example/offer?ref=bakery',
  abusive: 'Worst bakery in town. The staff are idiots and anyone who eats here is a fool.',
  question: 'Do you have gluten-free bread on Saturdays? Asking for my daughter.',
});

/**
 * The three comments to moderate on the post at `index`, after its own comments: one, two and three hours after the
 * last of them (or the post), numbered from `first` (ids `<post number>_<first + n>`).
 */
export function withModerationQueue(feed: SeedPost[], index: number, first: number): SeedPost[] {
  return feed.map((post, i) => {
    if (i !== index) return post;
    // After the post's own comments, so the list stays oldest first.
    const last = post.comments?.at(-1)?.created_time ?? post.created_time;
    const at = Date.parse(last.replace('+0000', 'Z'));
    const texts = [MODERATION_TEXTS.spam, MODERATION_TEXTS.abusive, MODERATION_TEXTS.question];
    const queue = numberComments(
      post.id,
      texts.map((message, n) => ({ created_time: graphTime(at + (n + 1) * HOUR), message })),
      first,
    );
    return { ...post, comments: [...(post.comments ?? []), ...queue] };
  });
}

/** A video: its poster (the scene) and its file, as StoryAttachmentMedia gives them. */
export const video = (scene: string, title: string): SeedAttachment => ({
  type: 'video_inline',
  title,
  media: { image: { src: mediaPath(scene, 720, 405), width: 720, height: 405 }, source: videoPath(scene, 720, 405) },
});

/** A square photo of a scene (media/art.ts), as the provider's 720-pixel feed picture. */
export const square = (scene: string): string => mediaPath(scene, 720);

export const photo = (scene: string, title?: string): SeedAttachment => ({
  type: 'photo',
  ...(title !== undefined ? { title } : {}),
  media: { image: { src: square(scene), width: 720, height: 720 } },
});

/** A photo post's picture and attachment. */
export const photoPost = (scene: string): Pick<Media, 'full_picture' | 'attachments'> => ({
  full_picture: square(scene),
  attachments: [photo(scene)],
});

/** The feed with each indexed post's media added; comment ids are `<post number>_<n>` like the provider's. */
export function withMedia(feed: SeedPost[], media: Readonly<Record<number, Media>>): SeedPost[] {
  return feed.map((post, i) => {
    const extra = media[i];
    if (extra === undefined) return post;
    const { comments, ...rest } = extra;
    return {
      ...post,
      ...rest,
      ...(comments !== undefined ? { comments: numberComments(post.id, comments) } : {}),
    };
  });
}

const U = SEED_IDS.users;
const P = SEED_IDS.pages;

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];
/** One opening interval, `'07:00-18:00'`. */
export type Interval = `${string}-${string}`;

/** The same intervals on each of `days`, to spread into `openingHours`. */
export function sameHours(days: readonly Day[], ...intervals: Interval[]): Partial<Record<Day, Interval[]>> {
  return Object.fromEntries(days.map((day) => [day, intervals]));
}

/**
 * The provider's `hours` field (`mon_1_open: '07:00'`, `mon_1_close`,
 * `sat_2_open`…) from each day's intervals, Monday first; a day left out is
 * closed and has no keys.
 */
export function openingHours(days: Partial<Record<Day, Interval[]>>): Record<string, string> {
  const hours: Record<string, string> = {};
  for (const day of DAYS) {
    (days[day] ?? []).forEach((interval, i) => {
      const [open = '', close = ''] = interval.split('-');
      hours[`${day}_${i + 1}_open`] = open;
      hours[`${day}_${i + 1}_close`] = close;
    });
  }
  return hours;
}

/** What the bakery is in every seed (names, address, contact, pictures); each seed adds its own story, counts and feed. */
export const BAKERY_IDENTITY = {
  id: P.bakery,
  name: 'Lovelace Analytical Bakery',
  category: 'Bakery',
  link: `https://www.facebook.com/${P.bakery}`,
  username: 'lovelacebakery',
  attire: 'Casual',
  phone: '+44 20 7946 0018',
  location: {
    street: "12 St James's Square",
    city: 'London',
    state: 'England',
    zip: 'SW1Y 4JH',
    country: 'United Kingdom',
    latitude: 51.50735,
    longitude: -0.13447,
  },
  emails: ['hello@lovelace-bakery.example', 'orders@lovelace-bakery.example'],
  website: 'https://lovelace-bakery.example/',
  picture: 'bakery-logo',
  cover: { id: '104735298799001', source: mediaPath('bakery-cover', 1200, 450), offset_x: 0, offset_y: 42 },
} satisfies Omit<SeedPage, 'feed'>;

/** Monday to Thursday, the bakery's weekday hours in every seed. */
export const BAKERY_WEEKDAYS = sameHours(['mon', 'tue', 'wed', 'thu'], '07:00-18:00');

/** The seeded people; `adaAlso` adds Pages Ada manages in one seed only. */
export function people(adaAlso: SeedRole[] = []): SeedUser[] {
  return [
    {
      id: U.ada,
      name: 'Ada Lovelace',
      first_name: 'Ada',
      middle_name: 'King',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      roles: [{ pageId: P.bakery, tasks: [...ALL_TASKS] }, { pageId: P.sparse, tasks: [...ALL_TASKS] }, ...adaAlso],
      businesses: [SEED_IDS.businesses.somervilleWorks],
    },
    {
      id: U.grace,
      name: 'Grace Hopper',
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      roles: [
        { pageId: P.cafe, tasks: [...ALL_TASKS] },
        // A shared page with a narrower role.
        { pageId: P.bakery, tasks: ['ANALYZE', 'CREATE_CONTENT', 'MODERATE'] },
      ],
    },
    { id: U.alan, name: 'Alan Turing', first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', roles: [] },
    ...extraUsers(),
  ];
}

export function deepFreeze<T extends Seed>(value: T): T {
  return freeze(value);
}

function freeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) freeze(v);
  }
  return value;
}
