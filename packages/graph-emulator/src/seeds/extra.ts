/**
 * Seeded people whose Pages the app reaches with difficulty, as on the real
 * provider: one whose Pages belong to a business portfolio only (so
 * `/me/accounts` lists nothing for them), and one with many Pages (so the
 * app has to follow `/me/accounts` paging over several calls). The portfolio
 * (in every seed) owns the shop and the bakery and works for the studio;
 * Ada belongs to it too, so her bakery is reached both ways.
 */
import { ALL_TASKS } from '../permissions';
import type { SeedBusiness, SeedPage, SeedUser } from './types';

export const EXTRA_IDS = Object.freeze({
  users: Object.freeze({
    /** Manages two Pages only through a business portfolio: `/me/accounts` is empty. */
    somerville: '100000000000014',
    /** Manages `MANY_PAGES` Pages directly. */
    fairfax: '100000000000015',
  }),
  pages: Object.freeze({
    /** Reachable only through the portfolio of `somerville`. */
    portfolioShop: '1200000000000001',
    portfolioStudio: '1200000000000002',
  }),
  businesses: Object.freeze({
    /** Owns `portfolioShop` and the bakery, works for `portfolioStudio`; Somerville and Ada belong to it. */
    somervilleWorks: '1400000000000001',
  }),
});

/** The portfolio; `bakeryId` is the bakery of every seed (./ids.ts, which imports this file). */
export function extraBusinesses(bakeryId: string): SeedBusiness[] {
  const P = EXTRA_IDS.pages;
  return [
    {
      id: EXTRA_IDS.businesses.somervilleWorks,
      name: 'Somerville Works',
      owned_pages: [P.portfolioShop, bakeryId],
      client_pages: [P.portfolioStudio],
      tasks: [...ALL_TASKS],
    },
  ];
}

export const MANY_PAGES = 30;

/** Ids of the many-pages user's Pages, in seed order. */
export function branchIds(): string[] {
  return Array.from({ length: MANY_PAGES }, (_, i) => String(1300000000000001 + i));
}

export function extraPages(): SeedPage[] {
  const P = EXTRA_IDS.pages;
  return [
    { id: P.portfolioShop, name: 'Somerville Instrument Shop', category: 'Shopping & Retail', feed: [] },
    { id: P.portfolioStudio, name: 'Somerville Design Studio', category: 'Design & Fashion', feed: [] },
    ...branchIds().map((id, i) => ({
      id,
      name: `Fairfax Branch ${String(i + 1).padStart(2, '0')}`,
      category: 'Bakery',
      feed: [],
    })),
  ];
}

export function extraUsers(): SeedUser[] {
  const U = EXTRA_IDS.users;
  return [
    {
      id: U.somerville,
      name: 'Mary Somerville',
      first_name: 'Mary',
      last_name: 'Somerville',
      email: 'mary.somerville@example.com',
      roles: [],
      businesses: [EXTRA_IDS.businesses.somervilleWorks],
    },
    {
      id: U.fairfax,
      name: 'Mary Fairfax',
      first_name: 'Mary',
      last_name: 'Fairfax',
      email: 'mary.fairfax@example.com',
      roles: branchIds().map((pageId) => ({ pageId, tasks: [...ALL_TASKS] })),
    },
  ];
}
