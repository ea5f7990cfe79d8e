/** Seeded ids, for tests and for the app's demo mode: the same in every seed (README#seeds). */
import { EXTRA_IDS } from './extra';

export const SEED_IDS = Object.freeze({
  users: Object.freeze({
    ada: '100000000000011',
    grace: '100000000000012',
    alan: '100000000000013',
    /** Test seed only: a role on the bakery without MODERATE or any task that acts as the Page (an advertiser). */
    clarke: '100000000000016',
    ...EXTRA_IDS.users,
  }),
  pages: Object.freeze({
    /** Every field set; a long feed (64 posts in the test seed, 40 in the demo). */
    bakery: '104735298765432',
    /** Fields missing: the test seed's has only `about` and a non-http website and no posts; the demo's, a few posts. */
    sparse: '108765432109876',
    /** A few fields and a short feed. */
    cafe: '1122334455667788',
    /** Demo seed only: a Page with no posts yet (Ada's third Page). */
    stall: '109900000000001',
    ...EXTRA_IDS.pages,
  }),
  /** Business portfolios, in every seed. */
  businesses: EXTRA_IDS.businesses,
});
