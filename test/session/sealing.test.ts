import request from 'supertest';
import type { SessionData } from 'express-session';
import { createApp } from '../../src/app';
import { buildContext } from '../../src/context';
import { graphClientFor } from '../../src/graph/client';
import { createLogger } from '../../src/log/logger';
import { SEED_IDS } from '@pagelight/graph-emulator';
import { TokenSealer } from '../../src/session/sealer';
import { createMemorySessionStore, type SessionStoreHandle } from '../../src/session/store';
import { signInAndConnect } from '../support/flow';
import { LogCapture } from '../support/stack';
import { configFor, useSharedEmulator } from '../support/instances';

const BAKERY = SEED_IDS.pages.bakery;
const KEY = 'token-encryption-key-0123456789abcdef';

describe('TokenSealer with a binding', () => {
  it('when opened with the binding it was sealed with, then the token comes back; with another or none, nothing', () => {
    const sealer = new TokenSealer([KEY]);
    const sealed = sealer.seal('EAAtoken', 'session:a');
    expect(sealer.open(sealed, 'session:a')).toBe('EAAtoken');
    expect(sealer.open(sealed, 'session:b')).toBeUndefined();
    expect(sealer.open(sealed)).toBeUndefined();
  });

  it('when the key is rotated, then a bound value sealed with the old key still opens', () => {
    const sealed = new TokenSealer([KEY]).seal('EAAtoken', 'session:a');
    expect(new TokenSealer([`new-${KEY}`, KEY]).open(sealed, 'session:a')).toBe('EAAtoken');
  });
});

describe('sealed tokens copied to another session', () => {
  const emulator = useSharedEmulator();
  let sessions: SessionStoreHandle;
  afterAll(async () => {
    await sessions.close();
  });

  it("when one person's stored sign-in is copied into another's session, then that session reads as not connected", async () => {
    const config = configFor(emulator);
    const logger = createLogger({ level: 'silent', destination: new LogCapture() });
    sessions = createMemorySessionStore(config);
    const graph = graphClientFor(config, logger);
    const app = createApp(buildContext(config, { graph, sessions, logger }));
    const store = sessions.store;
    try {
      const ada = request.agent(app);
      await signInAndConnect(ada, BAKERY, { user: SEED_IDS.users.ada });
      const all = () =>
        new Promise<Record<string, SessionData>>((resolve) =>
          store.all!((_e, a) => resolve((a ?? {}) as Record<string, SessionData>)),
        );
      const adaSid = Object.keys(await all())[0]!;
      const grace = request.agent(app);
      await signInAndConnect(grace, SEED_IDS.pages.cafe, { user: SEED_IDS.users.grace });
      const graceSid = Object.keys(await all()).find((sid) => sid !== adaSid)!;
      const both = await all();
      const stolen = { ...both[graceSid]!, signIn: both[adaSid]!.signIn };
      await new Promise<void>((resolve) => store.set(graceSid, stolen, () => resolve()));

      await grace.get(`/pages/${BAKERY}`).expect(401);
      await ada.get(`/pages/${BAKERY}`).expect(200);
    } finally {
      graph.close();
    }
  });
});
