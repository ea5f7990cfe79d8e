/**
 * The emulator's deterministic data sets (fixed ids, texts and timestamps; no
 * randomness): `demo`, realistic content a Page manager would recognise, the
 * default; and `test`, the hostile and awkward content the app's tests
 * assert on. Both use the ids in `SEED_IDS` (README#seeds).
 */
import { DEMO_SEED } from './seeds/demo';
import { TEST_SEED } from './seeds/test';
import { MODERATION_TEXTS } from './seeds/common';
import { SEED_IDS } from './seeds/ids';
import type { Seed } from './seeds/types';

export type {
  PageLocation,
  Seed,
  SeedAttachment,
  SeedBusiness,
  SeedComment,
  SeedPage,
  SeedPost,
  SeedRole,
  SeedUser,
} from './seeds/types';
export { SEED_IDS } from './seeds/ids';
export { DEMO_SEED, TEST_SEED };

/** The bakery's post with the comments to moderate, and their ids, in one seed (docs/reference.md#seeds). */
export interface ModerationIds {
  postId: string;
  spam: string;
  abusive: string;
  question: string;
}

function moderationIdsOf(seed: Seed): ModerationIds {
  const bakery = seed.pages.find((p) => p.id === SEED_IDS.pages.bakery);
  for (const post of bakery?.feed ?? []) {
    const idOf = (text: string) => post.comments?.find((c) => c.message === text)?.id;
    const [spam, abusive, question] = [MODERATION_TEXTS.spam, MODERATION_TEXTS.abusive, MODERATION_TEXTS.question].map(
      idOf,
    );
    if (spam !== undefined && abusive !== undefined && question !== undefined)
      return { postId: post.id, spam, abusive, question };
  }
  throw new Error('seed: the bakery has no comments to moderate');
}

/** Per seed: where the spam, the abusive comment and the unanswered question are. */
export const MODERATION_IDS: Readonly<Record<SeedName, ModerationIds>> = Object.freeze({
  demo: Object.freeze(moderationIdsOf(DEMO_SEED)),
  test: Object.freeze(moderationIdsOf(TEST_SEED)),
});

/** What `createEmulator` loads unless told otherwise: the demo. */
export const DEFAULT_SEED: Seed = DEMO_SEED;

export const SEED_NAMES = ['demo', 'test'] as const;
export type SeedName = (typeof SEED_NAMES)[number];

export const SEEDS: Readonly<Record<SeedName, Seed>> = Object.freeze({ demo: DEMO_SEED, test: TEST_SEED });

export function isSeedName(value: unknown): value is SeedName {
  return typeof value === 'string' && (SEED_NAMES as readonly string[]).includes(value);
}
