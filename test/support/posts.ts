/** The test seed's posts that suites name, each for what makes it worth naming (the bakery's feed, in seed order). */
import { SEED_IDS, TEST_SEED } from '@pagelight/graph-emulator';

const bakeryFeed = TEST_SEED.pages.find((p) => p.id === SEED_IDS.pages.bakery)!.feed;

/** "Fresh sourdough…": three comments, one with two replies (one by the Page). */
export const SOURDOUGH = bakeryFeed[0]!.id;
/** The album of five photos. */
export const ALBUM = bakeryFeed[4]!.id;
/** Thirty comments: more than one page of them. */
export const STORY = bakeryFeed[5]!.id;
/** A video, and reactions of every kind. */
export const VIDEO = bakeryFeed[7]!.id;
