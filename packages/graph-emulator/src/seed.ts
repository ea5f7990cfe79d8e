/**
 * The emulator's deterministic data sets (fixed ids, texts and timestamps; no
 * randomness): `demo`, realistic content a Page manager would recognise, the
 * default; and `test`, the hostile and awkward content the app's tests
 * assert on. Both use the ids in `SEED_IDS` (README#seeds). Each is a JSON
 * file under the package's `seeds/`, checked as a seed file of your own is
 * (./seeds/schema.ts), so the built-in seeds are also examples of one.
 */
import path from 'node:path';
import { readSeedFile } from './seeds/schema';
import { SEED_IDS } from './seeds/ids';
import type { Seed } from './seeds/types';
import { packageDir } from './views';

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

export const SEED_NAMES = ['demo', 'test'] as const;
export type SeedName = (typeof SEED_NAMES)[number];

/** A built-in seed, read once and frozen: a test that changes the data changes the emulator's copy, never this. */
function builtIn(name: SeedName): Seed {
  return freeze(readSeedFile(path.join(packageDir(), 'seeds', `${name}.json`)));
}

function freeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) freeze(v);
  }
  return value;
}

export const DEMO_SEED: Seed = builtIn('demo');
export const TEST_SEED: Seed = builtIn('test');

/** The comments every seed's bakery has to moderate (docs/reference.md#seeds). */
const MODERATION_TEXTS = Object.freeze({
  spam: 'Make $500 a day from home!!! Click here 👉 https://quick-cash.example/offer?ref=bakery',
  abusive: 'Worst bakery in town. The staff are idiots and anyone who eats here is a fool.',
  question: 'Do you have gluten-free bread on Saturdays? Asking for my daughter.',
});

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

export const SEEDS: Readonly<Record<SeedName, Seed>> = Object.freeze({ demo: DEMO_SEED, test: TEST_SEED });

export function isSeedName(value: unknown): value is SeedName {
  return typeof value === 'string' && (SEED_NAMES as readonly string[]).includes(value);
}
