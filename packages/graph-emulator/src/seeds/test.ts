/**
 * The test seed: the content the app's tests assert on, hostile and awkward
 * on purpose. Its bakery feed carries HTML-looking text, bidi overrides, a
 * zero-width space, emoji ZWJ sequences, a very long message and story-only
 * posts; a post whose pictures are handed out already expired; its repair
 * shop a `javascript:` website and no posts. Tests load it through the seed
 * control (README#seeds); the demo never shows it.
 */
import {
  BAKERY_IDENTITY,
  BAKERY_WEEKDAYS,
  deepFreeze,
  openingHours,
  people,
  sameHours,
  withMedia,
  withModerationQueue,
} from './common';
import { extraBusinesses, extraPages } from './extra';
import { SEED_IDS } from './ids';
import { BAKERY_MEDIA, CAFE_MEDIA } from './test-media';
import { bakeryFeed, cafeFeed } from './test-posts';
import type { Seed, SeedPage, SeedUser } from './types';

const P = SEED_IDS.pages;

const bakery: SeedPage = {
  ...BAKERY_IDENTITY,
  fan_count: 1843,
  followers_count: 1907,
  about: 'Bread computed to perfection since 1843.',
  bio: 'Founded by a mathematician who loved notes and knots.\nEvery loaf follows an algorithm.\n\nNo punched cards in the dough — we promise.',
  description: 'A neighbourhood bakery with sourdough, pastries and excellent coffee.',
  parking: { lot: 1, street: 1, valet: 0 },
  // Sunday is closed (no keys); Saturday has two intervals.
  hours: openingHours({ ...BAKERY_WEEKDAYS, fri: ['07:00-19:30'], sat: ['08:00-12:00', '17:00-21:00'] }),
  // "Bakers of the month": the comments a manager would moderate (docs/reference.md#seeds).
  feed: withModerationQueue(withMedia(bakeryFeed(P.bakery), BAKERY_MEDIA), 11, 1000),
};

/** Sees the bakery's comments but may not act on them: the app's "no controls" case. */
const ADVERTISER: SeedUser = {
  id: SEED_IDS.users.clarke,
  name: 'Joan Clarke',
  first_name: 'Joan',
  last_name: 'Clarke',
  email: 'joan@example.com',
  roles: [{ pageId: P.bakery, tasks: ['ADVERTISE', 'ANALYZE'] }],
};

const sparse: SeedPage = {
  id: P.sparse,
  name: 'Difference Engine Repairs',
  category: 'Repair Shop',
  about: 'We fix gears. Mostly.',
  // The small Page: below the provider's 100 likes, so it has no insights (README#insights).
  fan_count: 37,
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
  hours: openingHours({ ...sameHours(['mon', 'wed'], '09:00-17:00'), fri: ['09:00-15:00'] }),
  picture: 'cafe-logo',
  feed: withMedia(cafeFeed(P.cafe), CAFE_MEDIA),
};

export const TEST_SEED: Seed = deepFreeze({
  users: [...people(), ADVERTISER],
  pages: [bakery, sparse, cafe, ...extraPages()],
  businesses: extraBusinesses(P.bakery),
});
