import { CookieClient } from '../test/support/cookie-client';
import { control } from '../test/support/emulator';
import { realLogin } from '../test/support/login';
import { BAKERY, calls, startApp, stopChild, type Bench } from './shared';

/** The provider calls around one write: the warm view before it, the write, the view after it and the next. */
export interface WriteCalls {
  /** Calls of the warm view before the write (the cache filled): 0 expected. */
  warm: number;
  /** All calls the write made, and of them the writes (POST or DELETE). */
  write: { all: number; writes: number };
  /** Calls of the view right after the write, and of them those whose path has `changed`. */
  after: { all: number; changed: number };
  /** Calls of the view after that. */
  again: number;
}

/**
 * One person signed in to the Bakery views `target` twice (filling the cache), sends one write, then views it
 * twice again; the emulator's call log counts each step (docs/architecture.md#writes: read after write).
 */
export async function writeCalls(
  bench: Bench,
  how: {
    name: string;
    scopes: string;
    target: string;
    /** The path part of the calls the write's view must make again (`comments`, `feed`). */
    changed: string;
    send(browser: CookieClient, html: string): Promise<Response>;
  },
): Promise<WriteCalls> {
  const app = await startApp(bench, 60, how.name, { FB_SCOPES: how.scopes });
  const forget = () => control(bench.emulatorUrl, 'DELETE', '/log');
  try {
    const browser = new CookieClient(bench.appUrl);
    const outcome = await realLogin(bench.appUrl, undefined, BAKERY, browser);
    if (!outcome.ok) throw new Error(`login: ${outcome.step}`);
    const view = async () => {
      const res = await browser.get(how.target);
      if (res.status !== 200) throw new Error(`${how.target}: ${res.status}`);
      return res.text();
    };
    // The first view fills the cache and confirms the session's token; the second is served from it.
    await view();
    await forget();
    const html = await view();
    const warm = await calls(bench);
    await forget();
    const sent = await how.send(browser, html);
    if (sent.status !== 303) throw new Error(`${how.name}: ${sent.status}`);
    const write = {
      all: await calls(bench),
      writes: (await calls(bench, { method: 'POST' })) + (await calls(bench, { method: 'DELETE' })),
    };
    await forget();
    await view();
    const after = { all: await calls(bench), changed: await calls(bench, { path: how.changed }) };
    await forget();
    await view();
    return { warm, write, after, again: await calls(bench) };
  } finally {
    await stopChild(bench, app);
  }
}
