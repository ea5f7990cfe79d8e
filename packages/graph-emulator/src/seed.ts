/**
 * The emulator's deterministic data set: fixed ids, fixed texts, fixed
 * timestamps (no randomness), so tests can assert on exact values.
 */
import { ALL_TASKS } from './permissions';
import { mediaPath } from './media/sign';
import { bakeryFeed, cafeFeed } from './seed-posts';
import { BAKERY_MEDIA, CAFE_MEDIA, withMedia } from './seed-media';
import { EXTRA_IDS, extraPages, extraUsers } from './seed-extra';

export interface SeedPost {
  id: string;
  /** Provider format: 2026-10-01T12:00:00+0000. */
  created_time: string;
  message?: string;
  story?: string;
  /** Path on the emulator's own origin (`/media/…`, see `mediaPath`); served as a signed absolute URL. */
  full_picture?: string;
  /** Every picture URL of this post is handed out already past its expiry (the CDN then answers 403). */
  imageExpired?: boolean;
  attachments?: SeedAttachment[];
  /** Omitted when the post was never shared, as the provider does. */
  shares?: { count: number };
  /** Reaction counts by type (`like`, `love`, …); the activity controls change them. */
  reactions?: Record<string, number>;
  /** Visitors' comments, oldest first. */
  comments?: SeedComment[];
}

/** A StoryAttachment (Post reference, `attachments` edge): `photo`, `share` (a link) or `album`. */
export interface SeedAttachment {
  type: 'photo' | 'share' | 'album';
  title?: string;
  description?: string;
  url?: string;
  /** `media.image.src` is a path on the emulator's origin, like `full_picture`. */
  media?: { image: { src: string; width: number; height: number } };
  target?: { id?: string; url: string };
  subattachments?: SeedAttachment[];
}

export interface SeedComment {
  id: string;
  created_time: string;
  message: string;
}

export interface PageLocation {
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  latitude?: number;
  longitude?: number;
}

/** Field shapes as the Graph API returns them (docs/provider-interface.md#page-fields). */
export interface SeedPage {
  id: string;
  name: string;
  category: string;
  link?: string;
  username?: string;
  fan_count?: number;
  followers_count?: number;
  about?: string;
  attire?: string;
  bio?: string;
  description?: string;
  phone?: string;
  location?: PageLocation;
  parking?: { lot: 0 | 1; street: 0 | 1; valet: 0 | 1 };
  hours?: Record<string, string>;
  emails?: string[];
  website?: string;
  /** Profile picture: a scene name (`media/art.ts`), drawn at the size asked; without one, the silhouette. */
  picture?: string;
  /** Cover Photo reference shape; `source` is a path on the emulator's origin. */
  cover?: { id: string; source: string; offset_x: number; offset_y: number };
  /** Newest first. */
  feed: SeedPost[];
}

export interface SeedRole {
  pageId: string;
  tasks: string[];
}

export interface SeedUser {
  id: string;
  name: string;
  first_name: string;
  last_name: string;
  email: string;
  roles: SeedRole[];
  /**
   * Pages the person reaches only through a business portfolio: the real
   * `/me/accounts` does not list them, and no page token comes from them.
   */
  businessPages?: string[];
}

export interface Seed {
  users: SeedUser[];
  pages: SeedPage[];
}

/** Seeded ids, for tests and for the app's demo mode. */
export const SEED_IDS = Object.freeze({
  users: Object.freeze({
    ada: '100000000000011',
    grace: '100000000000012',
    alan: '100000000000013',
    ...EXTRA_IDS.users,
  }),
  pages: Object.freeze({
    /** Every field set, 64 posts. */
    bakery: '104735298765432',
    /** Only `about` and a non-http website; empty feed. */
    sparse: '108765432109876',
    /** A few fields and a short feed (5 posts). */
    cafe: '1122334455667788',
    ...EXTRA_IDS.pages,
  }),
});

const P = SEED_IDS.pages;

const bakery: SeedPage = {
  id: P.bakery,
  name: 'Lovelace Analytical Bakery',
  category: 'Bakery',
  link: `https://www.facebook.com/${P.bakery}`,
  username: 'lovelacebakery',
  fan_count: 1843,
  followers_count: 1907,
  about: 'Bread computed to perfection since 1843.',
  attire: 'Casual',
  bio: 'Founded by a mathematician who loved notes and knots.\nEvery loaf follows an algorithm.\n\nNo punched cards in the dough — we promise.',
  description: 'A neighbourhood bakery with sourdough, pastries and excellent coffee.',
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
  parking: { lot: 1, street: 1, valet: 0 },
  // Sunday is closed (no keys); Saturday has two intervals.
  hours: {
    mon_1_open: '07:00',
    mon_1_close: '18:00',
    tue_1_open: '07:00',
    tue_1_close: '18:00',
    wed_1_open: '07:00',
    wed_1_close: '18:00',
    thu_1_open: '07:00',
    thu_1_close: '18:00',
    fri_1_open: '07:00',
    fri_1_close: '19:30',
    sat_1_open: '08:00',
    sat_1_close: '12:00',
    sat_2_open: '17:00',
    sat_2_close: '21:00',
  },
  emails: ['hello@lovelace-bakery.example', 'orders@lovelace-bakery.example'],
  website: 'https://lovelace-bakery.example/',
  picture: 'bakery-logo',
  cover: { id: '104735298799001', source: mediaPath('bakery-cover', 1200, 450), offset_x: 0, offset_y: 42 },
  feed: withMedia(bakeryFeed(P.bakery), BAKERY_MEDIA),
};

const sparse: SeedPage = {
  id: P.sparse,
  name: 'Difference Engine Repairs',
  category: 'Repair Shop',
  about: 'We fix gears. Mostly.',
  // Not http(s): the app must show it as text, never as a link.
  website: 'javascript:alert(document.domain)',
  feed: [],
};

const cafe: SeedPage = {
  id: P.cafe,
  name: 'Hopper Compiler Café',
  category: 'Coffee Shop',
  link: `https://www.facebook.com/${P.cafe}`,
  fan_count: 312,
  about: 'Coffee, debugged.',
  attire: 'Dressy',
  emails: ['nanoseconds@hopper-cafe.example'],
  website: 'http://hopper-cafe.example',
  hours: {
    mon_1_open: '09:00',
    mon_1_close: '17:00',
    wed_1_open: '09:00',
    wed_1_close: '17:00',
    fri_1_open: '09:00',
    fri_1_close: '15:00',
  },
  picture: 'cafe-logo',
  feed: withMedia(cafeFeed(P.cafe), CAFE_MEDIA),
};

const U = SEED_IDS.users;

export const DEFAULT_SEED: Seed = deepFreeze({
  users: [
    {
      id: U.ada,
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      roles: [
        { pageId: P.bakery, tasks: [...ALL_TASKS] },
        { pageId: P.sparse, tasks: [...ALL_TASKS] },
      ],
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
        { pageId: P.bakery, tasks: ['ANALYZE', 'MODERATE', 'CREATE_CONTENT'] },
      ],
    },
    {
      id: U.alan,
      name: 'Alan Turing',
      first_name: 'Alan',
      last_name: 'Turing',
      email: 'alan@example.com',
      roles: [],
    },
    ...extraUsers(),
  ],
  pages: [bakery, sparse, cafe, ...extraPages()],
});

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
