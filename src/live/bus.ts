import { LRUCache } from 'lru-cache';

/**
 * What open pages are told: a page's feed gained posts, or changed otherwise
 * (edited, removed, reactions and comments). Counts only, never user content.
 * @see docs/architecture.md#live-updates
 */
export type PageEvent =
  /** `postId`: the post, when this app published it (src/pages/publish-actions.ts): a tab showing it tells nothing. */
  | { kind: 'new-posts'; count: number; postId?: string }
  | { kind: 'feed-changed' }
  /**
   * A comment was added to the post, or changed: open pages of it show it, the page's counts change. `commentId`:
   * the comment, when this app wrote it (src/pages/comment-actions.ts): the tab that wrote it tells nothing.
   */
  | { kind: 'new-comment'; postId: string; commentId?: string };

/** `at`: when it was published (epoch ms), the stream's event id, so a reconnecting tab misses nothing and sees nothing twice. */
export type PageListener = (event: PageEvent, at: number) => void;

/**
 * Page events between whoever learns of a change (the webhook receiver) and
 * the streams open on pages. One process today; a transport across instances
 * (Redis pub/sub) implements the same interface.
 */
export interface PageEvents {
  publish(pageId: string, event: PageEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(pageId: string, listener: PageListener): () => void;
  /** Events of the page published after `at` (epoch ms), as far back as they are kept: what a page rendered at `at` has not seen. */
  since(pageId: string, at: number): { at: number; event: PageEvent }[];
  /** Pages with at least one listener here. */
  readonly watchedPages: number;
  /**
   * The provider signed the person out (its deauthorize callback): every instance is told at once, and ends
   * their streams, rather than each stream noticing at its next heartbeat.
   */
  endPerson(userId: string): void;
  /** Called for each person ended on any instance ({@link endPerson}); one listener, the stream registry. */
  onPersonEnded(listener: (userId: string) => void): void;
}

/** How long, and how many per page, recent events are kept for a stream that opens after them. */
export const RECENT_MS = 2 * 60_000;
const RECENT_PER_PAGE = 20;
const RECENT_PAGES = 10_000;

/** The in-process bus: listeners per page, called synchronously; one that throws does not stop the others. */
export class LocalPageEvents implements PageEvents {
  private readonly listeners = new Map<string, Set<PageListener>>();
  private personEnded: (userId: string) => void = () => {};
  /**
   * The last events of each page, briefly: a page is rendered, then its script opens the stream, and a
   * change in between would otherwise never reach it. Bounded in pages, events per page and age.
   */
  private readonly recent = new LRUCache<string, { at: number; event: PageEvent }[]>({
    max: RECENT_PAGES,
    ttl: RECENT_MS,
  });

  constructor(
    private readonly onListenerError: (err: unknown) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  publish(pageId: string, event: PageEvent): void {
    this.deliver(pageId, event, this.now());
  }

  /** Keeps and hands out an event stamped `at` elsewhere (by the instance that published it, ./redis-bus). */
  deliver(pageId: string, event: PageEvent, at: number): void {
    const kept = (this.recent.get(pageId) ?? []).filter((e) => at - e.at < RECENT_MS);
    kept.push({ at, event });
    this.recent.set(pageId, kept.slice(-RECENT_PER_PAGE));
    const set = this.listeners.get(pageId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(event, at);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  subscribe(pageId: string, listener: PageListener): () => void {
    let set = this.listeners.get(pageId);
    if (!set) this.listeners.set(pageId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(pageId) === set) this.listeners.delete(pageId);
    };
  }

  since(pageId: string, at: number): { at: number; event: PageEvent }[] {
    return (this.recent.get(pageId) ?? []).filter((e) => e.at > at);
  }

  get watchedPages(): number {
    return this.listeners.size;
  }

  endPerson(userId: string): void {
    try {
      this.personEnded(userId);
    } catch (err) {
      this.onListenerError(err);
    }
  }

  onPersonEnded(listener: (userId: string) => void): void {
    this.personEnded = listener;
  }
}
