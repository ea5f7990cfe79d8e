/**
 * The demo seed, the emulator's default: what a Page manager would recognise.
 * A busy bakery with every field filled in and six weeks of posts, a café, a
 * repair shop that left most fields empty, and a market stall with no posts
 * yet. Nothing hostile: that is the test seed's job (./test.ts).
 */
import { mediaPath } from '../media/sign';
import { ALL_TASKS } from '../permissions';
import { BAKERY_IDENTITY, BAKERY_WEEKDAYS, deepFreeze, openingHours, people, sameHours } from './common';
import {
  DEMO_TIMES_WRITTEN_FOR,
  demoBakeryFeed,
  demoBakeryScheduled,
  demoCafeFeed,
  demoRepairFeed,
} from './demo-posts';
import { extraBusinesses, extraPages } from './extra';
import { SEED_IDS } from './ids';
import type { Seed, SeedPage } from './types';

const P = SEED_IDS.pages;

const bakery: SeedPage = {
  ...BAKERY_IDENTITY,
  fan_count: 11932,
  followers_count: 12408,
  about: 'Sourdough, pastries and good coffee on St James’s Square since 2016.',
  bio: 'Every loaf takes 36 hours, from starter to crust.\nWe bake everything on site, every morning from 4 am.\n\nWhat is left at closing time goes to the shelter on Jermyn Street.',
  description:
    'A neighbourhood bakery: sourdough, rye and baguettes, laminated pastries, cakes to order, and bread classes on Saturday afternoons.',
  parking: { lot: 0, street: 1, valet: 0 },
  // Sunday is closed (no keys); Saturday has two intervals.
  hours: openingHours({ ...BAKERY_WEEKDAYS, fri: ['07:00-19:30'], sat: ['08:00-12:00', '14:00-17:00'] }),
  feed: demoBakeryFeed(P.bakery),
  scheduled: demoBakeryScheduled(P.bakery),
};

/** The Page with missing fields: no hours, e-mail, address, cover, picture, link or follower count. */
const repairs: SeedPage = {
  id: P.sparse,
  name: 'Difference Engine Repairs',
  category: 'Repair Shop',
  about: 'Radios, record players and clocks, repaired in Deptford.',
  phone: '+44 20 7946 0301',
  website: 'https://difference-engine.example/',
  feed: demoRepairFeed(P.sparse),
};

const cafe: SeedPage = {
  id: P.cafe,
  name: 'Hopper Compiler Café',
  category: 'Coffee Shop',
  link: `https://www.facebook.com/${P.cafe}`,
  username: 'hoppercafe',
  fan_count: 3104,
  followers_count: 3281,
  about: 'Speciality coffee and pastries, two minutes from St James’s Square.',
  attire: 'Casual',
  phone: '+44 20 7946 0442',
  location: { street: '3 Apple Tree Yard', city: 'London', zip: 'SW1Y 6LD', country: 'United Kingdom' },
  emails: ['hello@hopper-cafe.example'],
  website: 'https://hopper-cafe.example/',
  hours: openingHours({
    ...sameHours(['mon', 'tue', 'wed', 'thu'], '08:00-17:00'),
    fri: ['08:00-16:00'],
    sat: ['09:00-16:00'],
  }),
  picture: 'cafe-logo',
  cover: { id: '112233445599001', source: mediaPath('cafe-cover', 1200, 450), offset_x: 0, offset_y: 50 },
  feed: demoCafeFeed(P.cafe),
};

/** A Page made last week: details filled in, nothing posted yet. */
const stall: SeedPage = {
  id: P.stall,
  name: 'Lovelace Bakery Market Stall',
  category: 'Food Stand',
  link: `https://www.facebook.com/${P.stall}`,
  followers_count: 212,
  about: 'Our Saturday stall at Deptford Market, 9 till 2.',
  location: { street: 'Deptford Market Yard', city: 'London', zip: 'SE8 4BX', country: 'United Kingdom' },
  hours: openingHours({ sat: ['09:00-14:00'] }),
  website: 'https://lovelace-bakery.example/market',
  picture: 'bakery-logo',
  feed: [],
};

export const DEMO_SEED: Seed = deepFreeze({
  users: people([{ pageId: P.stall, tasks: [...ALL_TASKS] }]),
  pages: [bakery, repairs, cafe, stall, ...extraPages()],
  businesses: extraBusinesses(P.bakery),
  timesRelativeTo: DEMO_TIMES_WRITTEN_FOR,
});
