/**
 * The emulator's deterministic data sets (fixed ids, texts and timestamps; no
 * randomness): `demo`, realistic content a Page manager would recognise, the
 * default; and `test`, the hostile and awkward content the app's tests
 * assert on. Both use the ids in `SEED_IDS` (README#seeds).
 */
import { DEMO_SEED } from './seeds/demo';
import { TEST_SEED } from './seeds/test';
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

/** What `createEmulator` loads unless told otherwise: the demo. */
export const DEFAULT_SEED: Seed = DEMO_SEED;

export const SEED_NAMES = ['demo', 'test'] as const;
export type SeedName = (typeof SEED_NAMES)[number];

export const SEEDS: Readonly<Record<SeedName, Seed>> = Object.freeze({ demo: DEMO_SEED, test: TEST_SEED });

export function isSeedName(value: unknown): value is SeedName {
  return typeof value === 'string' && (SEED_NAMES as readonly string[]).includes(value);
}
