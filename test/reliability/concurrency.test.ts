import { SEED_IDS } from '@pagelight/graph-emulator';
import { realLogin } from '../support/login';
import { startServedStack } from '../support/stack';

const LOGINS = Number(process.env.CONCURRENT_LOGINS ?? 500);

/** Who logs in, which page they connect, the name they must see, and the pages their picker must offer. */
const PEOPLE = [
  {
    user: SEED_IDS.users.ada,
    page: SEED_IDS.pages.bakery,
    name: 'Lovelace Analytical Bakery',
    offers: [SEED_IDS.pages.bakery, SEED_IDS.pages.sparse],
  },
  {
    user: SEED_IDS.users.ada,
    page: SEED_IDS.pages.sparse,
    name: 'Difference Engine Repairs',
    offers: [SEED_IDS.pages.bakery, SEED_IDS.pages.sparse],
  },
  {
    user: SEED_IDS.users.grace,
    page: SEED_IDS.pages.cafe,
    name: 'Hopper Compiler Café',
    offers: [SEED_IDS.pages.cafe, SEED_IDS.pages.bakery],
  },
];

describe(`${LOGINS} simultaneous logins through the real flow`, () => {
  let served: Awaited<ReturnType<typeof startServedStack>>;
  let base: string;
  beforeAll(async () => {
    served = await startServedStack({ timeoutMs: 10_000 });
    base = served.url;
  });
  afterAll(() => served.close());

  it("when they all log in at once with separate cookie jars, then all complete and none sees another's page", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: LOGINS }, (_, i) => {
        const who = PEOPLE[i % PEOPLE.length]!;
        return realLogin(base, who.user, who.page).then((outcome) => ({ who, outcome }));
      }),
    );
    const failed = outcomes.filter(({ outcome }) => !outcome.ok);
    expect(failed.map(({ outcome }) => `${outcome.step}:${outcome.status}`)).toEqual([]);
    for (const { who, outcome } of outcomes) {
      expect(outcome.pageName).toBe(who.name);
      expect([...outcome.offered].sort()).toEqual([...who.offers].sort());
    }
    // Every session really holds its own token: the emulator saw one user token per login.
    expect(served.stack.emulator.controls.calls({ path: 'oauth/access_token' })).toBeGreaterThanOrEqual(LOGINS);
  }, 120_000);
});
