/** Seeded ids, for tests and for the app's demo mode: the same in every seed (README#seeds, seeds/*.json). */

export const SEED_IDS = Object.freeze({
  users: Object.freeze({
    ada: '100000000000011',
    grace: '100000000000012',
    alan: '100000000000013',
    /** Test seed only: a role on the bakery without MODERATE or any task that acts as the Page (an advertiser). */
    clarke: '100000000000016',
    /** Manages two Pages only through a business portfolio: `/me/accounts` is empty. */
    somerville: '100000000000014',
    /** Manages 30 Pages directly, one per London district (the dialog's page picker and its filter). */
    fairfax: '100000000000015',
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
    /** Reachable only through the portfolio of `somerville`. */
    portfolioShop: '1200000000000001',
    portfolioStudio: '1200000000000002',
  }),
  /** Business portfolios, in every seed. */
  businesses: Object.freeze({
    /** Owns `portfolioShop` and the bakery, works for `portfolioStudio`; Somerville and Ada belong to it. */
    somervilleWorks: '1400000000000001',
  }),
});
