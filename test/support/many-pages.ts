import { TEST_SEED, type Seed } from '@pagelight/graph-emulator';

/** Each person of {@link manyPagesSeed}: their id, their portfolio's id, and how many Pages it owns. */
export interface ManyPagesPerson {
  id: string;
  portfolio: string;
  pages: number;
}

/** Scopes that list a person's portfolio Pages: the login dialog shows no box for each of them. */
export const WITH_BUSINESS = { FB_SCOPES: 'pages_show_list pages_read_engagement business_management' };

/**
 * The test seed and more people, each the member of a business portfolio that owns `pages` Pages ("Branch 1" …),
 * which the emulator lists `accountsPageSize` a call (docs/provider-interface.md#portfolio-pages).
 */
export function manyPagesSeed(people: readonly ManyPagesPerson[]): Seed {
  let next = 1600000000000001;
  const made = people.map((person) => ({
    person,
    ids: Array.from({ length: person.pages }, () => String(next++)),
  }));
  return {
    ...TEST_SEED,
    pages: [
      ...TEST_SEED.pages,
      ...made.flatMap(({ ids }) => ids.map((id, i) => ({ id, name: `Branch ${i + 1}`, category: 'Bakery', feed: [] }))),
    ],
    businesses: [
      ...(TEST_SEED.businesses ?? []),
      ...made.map(({ person, ids }) => ({
        id: person.portfolio,
        name: 'Many Branches',
        owned_pages: ids,
        client_pages: [],
        tasks: ['MODERATE'],
      })),
    ],
    users: [
      ...TEST_SEED.users,
      ...people.map((person) => ({
        id: person.id,
        name: 'Many Pages',
        first_name: 'Many',
        last_name: 'Pages',
        email: `many.pages.${person.id}@example.com`,
        roles: [],
        businesses: [person.portfolio],
      })),
    ],
  };
}
