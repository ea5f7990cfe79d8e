import http from 'node:http';

/**
 * An event stream (text/event-stream) open over a real socket: what it
 * received so far, a wait for a piece of it, and the server ending it.
 * docs/architecture.md#live-updates
 */
export interface EventStream {
  status: number;
  text(): string;
  /** Resolves once the stream has received `what`: waits for the bytes, not for a time. */
  received(what: string): Promise<void>;
  /** Resolves when the server ends the stream (or it is closed). */
  ended: Promise<void>;
  close(): void;
}

/** GET `path` on `base` as an EventSource would, with `cookie`; resolves once the head arrives. */
export function openStream(base: string, path: string, cookie: string): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, base), { headers: { cookie, accept: 'text/event-stream' } }, (res) => {
      let text = '';
      const waiting = new Set<{ what: string; done: () => void }>();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        for (const wait of waiting) {
          if (!text.includes(wait.what)) continue;
          waiting.delete(wait);
          wait.done();
        }
      });
      const ended = new Promise<void>((done) => res.on('close', () => done()));
      resolve({
        status: res.statusCode ?? 0,
        text: () => text,
        received: (what) =>
          text.includes(what)
            ? Promise.resolve()
            : Promise.race([
                new Promise<void>((done) => waiting.add({ what, done })),
                ended.then(() => {
                  if (!text.includes(what))
                    throw new Error(`the stream ended without ${JSON.stringify(what)}: ${text}`);
                }),
              ]),
        ended,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
  });
}
