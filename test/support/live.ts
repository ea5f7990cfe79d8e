import { SEED_IDS } from '@pagelight/graph-emulator';
import { CookieClient } from './cookie-client';
import { realLogin } from './login';
import type { EventStream } from './sse';
import { LIVE_ENV, type Stack } from './stack';
import { eventually } from './wait';

/**
 * Ada signed in to a served live stack with the Bakery connected, the provider's dashboard pointing its webhooks
 * at the app (which answers the handshake). The streams a test puts in `streams` are closed after it, and the
 * next test starts with none open.
 */
export function useLivePerson(served: { readonly stack: Stack; readonly url: string }): {
  readonly person: CookieClient;
  readonly streams: EventStream[];
} {
  let person: CookieClient | undefined;
  const streams: EventStream[] = [];
  beforeAll(async () => {
    const verified = await served.stack.emulator.controls.setWebhook('', {
      url: `${served.url}/webhooks/facebook`,
      verifyToken: LIVE_ENV.FB_WEBHOOK_VERIFY_TOKEN,
    });
    expect(verified).toBe(true);
    person = new CookieClient(served.url);
    expect((await realLogin(served.url, undefined, SEED_IDS.pages.bakery, person)).ok).toBe(true);
  });
  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    await eventually(() => served.stack.streams.size === 0);
  });
  return {
    get person() {
      if (person === undefined) throw new Error('useLivePerson: the person signs in in beforeAll');
      return person;
    },
    streams,
  };
}
