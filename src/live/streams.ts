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

/** Whose a stream is: the session it was opened in, the person signed in there (when known), the client's address. */
export interface StreamOwner {
  session: string;
  person?: string;
  address?: string;
}

/** Bounds beyond the session's and the instance's (LIVE_STREAMS_PER_PERSON, LIVE_STREAMS_PER_ADDRESS). */
export interface StreamBounds {
  perPerson?: number;
  perAddress?: number;
}

/**
 * Open live-update streams, bounded per session, per person, per client address and in all: a stream holds a
 * socket and a little memory for as long as the tab stays open, so logging in again and again, or many people
 * behind one address, cannot take every connection. Logout, and the provider's deauthorize callback, end them.
 */
export class StreamRegistry {
  private readonly bySession = new Map<string, Set<OpenStream>>();
  private readonly byPerson = new Map<string, Set<OpenStream>>();
  private readonly byAddress = new Map<string, Set<OpenStream>>();
  private total = 0;
  private closed = false;

  constructor(
    private readonly perSession: number,
    private readonly max: number,
    private readonly bounds: StreamBounds = {},
  ) {}

  /** Counts `stream` for its owner, or throws a 429 when a bound is reached. Returns the release function. */
  admit(owner: StreamOwner, stream: OpenStream): () => void {
    if (this.closed) throw new StreamLimitError('The server is restarting; the page reconnects by itself.');
    if (sizeOf(this.bySession, owner.session) >= this.perSession)
      throw new StreamLimitError('This session has too many live pages open. Close a tab and reload.');
    if (owner.person !== undefined && sizeOf(this.byPerson, owner.person) >= (this.bounds.perPerson ?? Infinity))
      throw new StreamLimitError('You have too many live pages open. Close a tab and reload.');
    if (owner.address !== undefined && sizeOf(this.byAddress, owner.address) >= (this.bounds.perAddress ?? Infinity))
      throw new StreamLimitError('Too many live pages are open from your network. Close a tab and reload.');
    if (this.total >= this.max) throw new StreamLimitError('Too many live pages are open right now.');
    const groups: [Map<string, Set<OpenStream>>, string][] = [[this.bySession, owner.session]];
    if (owner.person !== undefined) groups.push([this.byPerson, owner.person]);
    if (owner.address !== undefined) groups.push([this.byAddress, owner.address]);
    for (const [map, key] of groups) add(map, key, stream);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const [map, key] of groups) remove(map, key, stream);
      this.total--;
    };
  }

  /** Ends every stream of the session (it logged out, or its session is gone). */
  closeSession(sessionId: string): void {
    for (const stream of [...(this.bySession.get(sessionId) ?? [])]) stream.end();
  }

  /** Ends every stream of the person, whichever session it was opened in (the provider signed them out). */
  closePerson(userId: string): void {
    for (const stream of [...(this.byPerson.get(userId) ?? [])]) stream.end();
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

function sizeOf(map: Map<string, Set<OpenStream>>, key: string): number {
  return map.get(key)?.size ?? 0;
}

function add(map: Map<string, Set<OpenStream>>, key: string, stream: OpenStream): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(stream);
}

function remove(map: Map<string, Set<OpenStream>>, key: string, stream: OpenStream): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(stream);
  if (set.size === 0) map.delete(key);
}
