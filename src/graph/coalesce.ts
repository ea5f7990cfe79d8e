import { createHash } from 'node:crypto';

/**
 * Request coalescing: concurrent identical upstream reads share one in-flight
 * call. "Identical" includes the credential, so a caller never receives an
 * answer obtained with someone else's token: authorization is exactly what it
 * would be without coalescing. The token enters the key only as a hash, so
 * the map never holds a usable credential.
 */
export class InFlight {
  private readonly calls = new Map<string, Promise<unknown>>();
  /** Callers that joined a call already under way (for tests and the benchmark). */
  joined = 0;

  /** Runs `start` unless an identical call is under way, in which case its promise is shared. */
  run<T>(key: string, start: () => Promise<T>): Promise<T> {
    const pending = this.calls.get(key);
    if (pending) {
      this.joined++;
      return pending as Promise<T>;
    }
    const call = start().finally(() => this.calls.delete(key));
    this.calls.set(key, call);
    return call;
  }

  get size(): number {
    return this.calls.size;
  }
}

/** The key of a read: method, path, parameters in a stable order, and a digest of the token. */
export function readKey(method: string, path: string, params: Record<string, string>, token: string): string {
  const query = Object.keys(params)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k]!)}`)
    .join('&');
  return `${method} ${path}?${query} ${createHash('sha256').update(token).digest('base64url')}`;
}
