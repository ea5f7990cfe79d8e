import type { AppContext } from '../context';
import { BUSINESS_SCOPE } from '../graph/provider';
import { MAX_LISTED_PAGES, type AdmitRead } from '../graph/client';
import type { PageList } from '../graph/schemas';
import { GraphApiError } from '../graph/errors';

/**
 * The picker's list with the Pages of the person's business portfolios, which `/me/accounts` leaves out
 * (docs/provider-interface.md#portfolio-pages). Asked for only when the person granted `business_management`
 * (`scopes`, as the provider listed them at login); the provider refusing it anyway (removed since, or the
 * App Review lacking) is no failure: the list stays as `/me/accounts` gave it, marked `refused`, so the
 * picker says how to see them.
 */
export async function withPortfolioPages(
  ctx: Pick<AppContext, 'graph'>,
  accounts: PageList,
  userToken: string,
  scopes: readonly string[] | undefined,
  admit: AdmitRead,
): Promise<PageList> {
  if (!scopes?.includes(BUSINESS_SCOPE)) return accounts;
  const portfolio = await ctx.graph.listPortfolioPages(userToken, admit).catch((err: unknown) => {
    if (err instanceof GraphApiError && err.kind === 'permission') return undefined;
    throw err;
  });
  if (!portfolio) return { ...accounts, portfolios: 'refused' };
  // A Page also in /me/accounts keeps that entry: it carries the person's own role (`tasks`).
  const listed = new Set(accounts.pages.map((p) => p.id));
  const more = portfolio.pages.filter((p) => !listed.has(p.id));
  const room = Math.max(0, MAX_LISTED_PAGES - accounts.pages.length);
  return {
    pages: [...accounts.pages, ...more.slice(0, room)],
    cut: accounts.cut || portfolio.cut || more.length > room,
    portfolios: 'listed',
  };
}
