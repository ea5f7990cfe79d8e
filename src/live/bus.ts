/**
 * What open pages are told: a page's feed gained posts, or changed otherwise
 * (edited, removed, reactions and comments). Counts only, never user content.
 * @see docs/architecture.md#live-updates
 */
export type PageEvent = { kind: 'new-posts'; count: number } | { kind: 'feed-changed' };

export type PageListener = (event: PageEvent) => void;

/**
 * Page events between whoever learns of a change (the webhook receiver) and
 * the streams open on pages. One process today; a transport across instances
 * (Redis pub/sub) implements the same interface.
 */
export interface PageEvents {
  publish(pageId: string, event: PageEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(pageId: string, listener: PageListener): () => void;
  /** Pages with at least one listener here. */
  readonly watchedPages: number;
}

/** The in-process bus: listeners per page, called synchronously; one that throws does not stop the others. */
export class LocalPageEvents implements PageEvents {
  private readonly listeners = new Map<string, Set<PageListener>>();

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  publish(pageId: string, event: PageEvent): void {
    const set = this.listeners.get(pageId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(event);
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

  get watchedPages(): number {
    return this.listeners.size;
  }
}
