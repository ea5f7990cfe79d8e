import { Writable } from 'node:stream';
import { startEmulator, type RunningEmulator } from '@pagelight/graph-emulator';
import type { Express } from 'express';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { buildContext, type AppContext } from '../../src/context';
import { graphClientFor } from '../../src/graph/client';
import { createLogger } from '../../src/log/logger';
import type { Tracing } from '../../src/observe/tracing';
import type { Redis } from '../../src/redis';
import { APP_SECRET, appEnv } from '../support/stack';
import { credentialsSeenBy, leakedLines } from '../support/log-scrape';

export const BASE_URL = 'http://app.test';
const APP_ID = '1234567890123456';

/** The app wired to an emulator as startStack does, keeping the context (its metrics) in reach. */
export interface ObservedStack {
  app: Express;
  ctx: AppContext;
  emulator: RunningEmulator;
  logLines: string[];
  close(): Promise<void>;
}

export async function startObservedStack(
  env: Record<string, string>,
  tracing?: Tracing,
  redis?: Redis,
): Promise<ObservedStack> {
  const emulator = await startEmulator({
    clients: [
      { clientId: APP_ID, clientSecret: APP_SECRET, redirectUri: `${BASE_URL}/auth/callback`, name: 'Pagelight test' },
    ],
    seed: 'test',
  });
  const config = loadConfig({
    ...appEnv(emulator.url),
    PROVIDER_TIMEOUT_MS: '1500',
    ...env,
  });
  const logLines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger({ level: 'debug', destination });
  const graph = graphClientFor(config, logger, { retry: { retries: 1, baseMs: 10, capMs: 50, deadlineMs: 4000 } });
  const ctx = buildContext(config, { logger, graph, ...(tracing ? { tracing } : {}), ...(redis ? { redis } : {}) });
  return {
    app: createApp(ctx),
    ctx,
    emulator,
    logLines,
    close: async () => {
      const leaks = leakedLines(logLines, credentialsSeenBy(emulator, APP_SECRET));
      graph.close();
      await ctx.sessions.close();
      await emulator.close();
      if (leaks.length > 0) throw new Error(`credentials in the app's log:\n${leaks.slice(0, 5).join('\n')}`);
    },
  };
}
