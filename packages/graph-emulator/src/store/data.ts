/**
 * The emulator's mutable copy of the seed: users, their page roles, pages and
 * feeds. `reset()` returns to the seed, `load()` switches to another; tests change single page fields with
 * `setPageField` (e.g. to inject HTML-looking text).
 */
import type { Seed, SeedBusiness, SeedComment, SeedPage, SeedPost, SeedRole, SeedUser } from '../seed';

/** Fields a Page node has in the emulator. Anything else is a "nonexisting field". */
export const PAGE_FIELDS: readonly string[] = Object.freeze([
  'id',
  'name',
  'category',
  'link',
  'username',
  'fan_count',
  'followers_count',
  'about',
  'attire',
  'bio',
  'description',
  'phone',
  'location',
  'parking',
  'hours',
  'emails',
  'website',
  'picture',
  'cover',
  'access_token',
]);

/** Fields a test may set: everything but the identity and the token. */
export function isSettablePageField(field: string): boolean {
  return PAGE_FIELDS.includes(field) && field !== 'id' && field !== 'access_token';
}

export interface PageState {
  id: string;
  /** Field name → value; absent = unset (omitted from responses). */
  fields: Map<string, unknown>;
  feed: SeedPost[];
  /** Not published (yet): scheduled posts and unpublished ones, outside the feed (docs/reference.md#publishing). */
  scheduled: SeedPost[];
}

/** A post of the page, published or not, by its id. */
export function findPost(page: PageState, id: string): SeedPost | undefined {
  return page.feed.find((p) => p.id === id) ?? page.scheduled.find((p) => p.id === id);
}

/** A comment of a page's post, found by its id (`<post number>_<n>`), with its post and its parent if a reply. */
export function findComment(
  page: PageState,
  id: string,
): { post: SeedPost; comment: SeedComment; parent?: SeedComment } | undefined {
  for (const post of page.feed) {
    if (post.id.split('_')[1] !== id.split('_')[0]) continue;
    for (const comment of post.comments ?? []) {
      if (comment.id === id) return { post, comment };
      const reply = comment.replies?.find((r) => r.id === id);
      if (reply !== undefined) return { post, comment: reply, parent: comment };
    }
  }
  return undefined;
}

/** Made-up visitors for seeded comments that name nobody: one per comment, fixed by its id. */
const VISITORS = [
  'Mary Somerville',
  'Charles Babbage',
  'Hedy Lamarr',
  'Alan Kay',
  'Radia Perlman',
  'Edsger D.',
  'Katherine Johnson',
  'Claude Shannon',
  'Margaret Hamilton',
  'Donald K.',
  'Frances Allen',
  'Tim B.',
  'Barbara Liskov',
];

/** Who wrote a comment: the seed's `from`, else a made-up visitor fixed by its id. */
export function authorOf(comment: SeedComment): { id: string; name: string } {
  if (comment.from !== undefined) return comment.from;
  const n = Number(comment.id.split('_')[1] ?? '0') % VISITORS.length;
  return { id: String(100000000200000 + n), name: VISITORS[n]! };
}

export class DataStore {
  private users = new Map<string, SeedUser>();
  private pages = new Map<string, PageState>();
  private businesses = new Map<string, SeedBusiness>();

  /** @param startedAt the emulator's start: a seed with `timesRelativeTo` is moved to it. */
  constructor(
    private seed: Seed,
    private readonly startedAt: number,
  ) {
    this.reset();
  }

  /** Another data set from now on (the seed control); `reset()` returns to it. */
  load(seed: Seed): void {
    this.seed = seed;
    this.reset();
  }

  reset(): void {
    const copy = structuredClone(this.seed);
    if (copy.timesRelativeTo !== undefined) moveTimes(copy, this.startedAt - copy.timesRelativeTo);
    this.users = new Map(copy.users.map((u) => [u.id, u]));
    this.pages = new Map(
      copy.pages.map(({ id, feed, scheduled, ...rest }) => [
        id,
        { id, feed, scheduled: scheduled ?? [], fields: new Map(Object.entries(rest)) },
      ]),
    );
    this.businesses = new Map((copy.businesses ?? []).map((b) => [b.id, b]));
  }

  /** The data as it is now, as a seed whose times are written as they are (no `timesRelativeTo`). */
  snapshot(): Seed {
    return structuredClone({
      users: [...this.users.values()],
      pages: [...this.pages.values()].map(
        (p) =>
          ({
            id: p.id,
            ...Object.fromEntries(p.fields),
            feed: p.feed,
            ...(p.scheduled.length > 0 ? { scheduled: p.scheduled } : {}),
          }) as SeedPage,
      ),
      businesses: [...this.businesses.values()],
    });
  }

  user(id: string): SeedUser | undefined {
    return this.users.get(id);
  }

  allUsers(): SeedUser[] {
    return [...this.users.values()];
  }

  page(id: string): PageState | undefined {
    return this.pages.get(id);
  }

  allPages(): PageState[] {
    return [...this.pages.values()];
  }

  /** The user's role on the page, or undefined when they do not manage it. */
  role(userId: string, pageId: string): SeedRole | undefined {
    return this.users.get(userId)?.roles.find((r) => r.pageId === pageId);
  }

  /** Pages the user manages, in seed order, skipping roles on pages that no longer exist. */
  managed(userId: string): { page: PageState; tasks: string[] }[] {
    const roles = this.users.get(userId)?.roles ?? [];
    return roles.flatMap((r) => {
      const page = this.pages.get(r.pageId);
      return page === undefined ? [] : [{ page, tasks: r.tasks }];
    });
  }

  /** The portfolios the user belongs to, in the user's order. */
  businessesOf(userId: string): SeedBusiness[] {
    const ids = this.users.get(userId)?.businesses ?? [];
    return ids.flatMap((id) => this.businesses.get(id) ?? []);
  }

  /** A portfolio the user belongs to, by id; undefined for any other id. */
  memberBusiness(userId: string, businessId: string): SeedBusiness | undefined {
    return this.businessesOf(userId).find((b) => b.id === businessId);
  }

  /** The user's tasks on a Page through one of their portfolios (owned or client), or undefined. */
  portfolioTasks(userId: string, pageId: string): string[] | undefined {
    return this.businessesOf(userId).find((b) => b.owned_pages.includes(pageId) || b.client_pages.includes(pageId))
      ?.tasks;
  }

  setPageField(pageId: string, field: string, value: unknown): void {
    const page = this.pages.get(pageId);
    if (page === undefined) throw new Error(`Unknown page ${pageId}`);
    if (!isSettablePageField(field)) throw new Error(`Field ${field} cannot be set`);
    if (value === null || value === undefined) page.fields.delete(field);
    else page.fields.set(field, structuredClone(value));
  }

  /** Gives the user `tasks` on the page (a role changed on the provider), or with null takes the role away. */
  setRole(userId: string, pageId: string, tasks: readonly string[] | null): void {
    const user = this.users.get(userId);
    if (user === undefined) throw new Error(`Unknown user ${userId}`);
    if (!this.pages.has(pageId)) throw new Error(`Unknown page ${pageId}`);
    const others = user.roles.filter((r) => r.pageId !== pageId);
    user.roles = tasks === null ? others : [...others, { pageId, tasks: [...tasks] }];
  }
}

/** Every post's, comment's and reply's time moved by `byMs`, in the provider's format. */
function moveTimes(seed: Seed, byMs: number): void {
  const move = (time: string): string => {
    const ms = Date.parse(time.replace(/\+0000$/, 'Z'));
    return Number.isNaN(ms) ? time : new Date(ms + byMs).toISOString().replace(/\.\d{3}Z$/, '+0000');
  };
  for (const page of seed.pages) {
    for (const post of page.scheduled ?? []) {
      post.created_time = move(post.created_time);
      if (post.scheduled_publish_time !== undefined) post.scheduled_publish_time += Math.round(byMs / 1000);
    }
    for (const post of page.feed) {
      post.created_time = move(post.created_time);
      for (const comment of post.comments ?? []) {
        comment.created_time = move(comment.created_time);
        for (const reply of comment.replies ?? []) reply.created_time = move(reply.created_time);
      }
    }
  }
}
