/**
 * The test seed: the content the app's tests assert on, hostile and awkward
 * on purpose. Its bakery feed carries HTML-looking text, bidi overrides, a
 * zero-width space, emoji ZWJ sequences, a very long message and story-only
 * posts; a post whose pictures are handed out already expired; its repair
 * shop a `javascript:` website and no posts. Tests load it through the seed
 * control (README#seeds); the demo never shows it.
 */
import { mediaPath } from '../media/sign';
import { deepFreeze, people, withMedia } from './common';
import { extraPages } from './extra';
import { SEED_IDS } from './ids';
import { BAKERY_MEDIA, CAFE_MEDIA } from './test-media';
import { bakeryFeed, cafeFeed } from './test-posts';
import type { Seed, SeedPage } from './types';

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

export const TEST_SEED: Seed = deepFreeze({
  users: people(),
  pages: [bakery, sparse, cafe, ...extraPages()],
});
