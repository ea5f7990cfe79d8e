import { AppError } from '../errors';

/** Over a bound on open streams: a 429 (an EventSource stops retrying on it). */
export class StreamLimitError extends AppError {
  declare readonly retryAfterSec: number;

  constructor(message: string) {
    super('too_many_requests', message);
    this.retryAfterSec = 30;
  }
}

/** An open stream, as the registry sees it: something it can end. */
export interface OpenStream {
  end(): void;
}

/**
 * Open live-update streams, per session and in all, each bounded: a stream holds a socket and a little memory
 * for as long as the tab stays open. Logout ends a session's streams.
 * @see docs/architecture.md#live-updates
 */
export class StreamRegistry {
  private readonly bySession = new Map<string, Set<OpenStream>>();
  private total = 0;
  private closed = false;

  constructor(
    private readonly perSession: number,
    private readonly max: number,
  ) {}

  /** Counts `stream` for the session, or throws a 429 when a bound is reached. Returns the release function. */
  admit(sessionId: string, stream: OpenStream): () => void {
    if (this.closed) throw new StreamLimitError('The server is restarting; the page reconnects by itself.');
    let set = this.bySession.get(sessionId);
    if ((set?.size ?? 0) >= this.perSession)
      throw new StreamLimitError('This session has too many live pages open. Close a tab and reload.');
    if (this.total >= this.max) throw new StreamLimitError('Too many live pages are open right now.');
    if (!set) this.bySession.set(sessionId, (set = new Set()));
    set.add(stream);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      set.delete(stream);
      this.total--;
      if (set.size === 0 && this.bySession.get(sessionId) === set) this.bySession.delete(sessionId);
    };
  }

  /** Ends every stream of the session (it logged out, or its session is gone). */
  closeSession(sessionId: string): void {
    for (const stream of [...(this.bySession.get(sessionId) ?? [])]) stream.end();
  }

  /** Ends every stream and admits no more (shutdown: an open stream would hold the server open). */
  closeAll(): void {
    this.closed = true;
    for (const set of [...this.bySession.values()]) for (const stream of [...set]) stream.end();
  }

  get size(): number {
    return this.total;
  }
}
