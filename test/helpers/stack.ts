import { Writable } from 'node:stream';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { GraphClient } from '../../src/graph/client';
import { createLogger } from '../../src/log/logger';
import { createMemorySessionStore, type SessionStoreHandle } from '../../src/session/store';
import { startEmulator, type RunningEmulator } from '../../src/provider';

export const APP_ID = '1234567890123456';
export const APP_SECRET = 'test-app-secret-value-0001';
export const SESSION_SECRET = 'test-session-secret-0123456789abcdef';
export const BASE_URL = 'http://app.test';

/** Every log line the app wrote, for assertions (nothing secret may be in one). */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface Stack {
  app: Express;
  config: Config;
  emulator: RunningEmulator;
  logs: LogCapture;
  sessions: SessionStoreHandle;
  graph: GraphClient;
  close(): Promise<void>;
}

export interface StackOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  now?: () => number;
}

/**
 * The app (not listening: supertest drives it) wired to an emulator on an
 * ephemeral port, configured through the same variables an operator sets.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const emulator = await startEmulator({
    clients: [{ clientId: APP_ID, clientSecret: APP_SECRET, redirectUri: `${BASE_URL}/auth/callback`, name: 'Pagelight test' }],
  });
  const config = loadConfig({
    FB_APP_ID: APP_ID,
    FB_APP_SECRET: APP_SECRET,
    FB_AUTH_URL: emulator.url,
    FB_GRAPH_URL: emulator.url,
    BASE_URL,
    SESSION_SECRET,
    PROVIDER_TIMEOUT_MS: String(options.timeoutMs ?? 1500),
    ...options.env,
  });
  const logs = new LogCapture();
  const logger = createLogger({ level: 'debug', destination: logs });
  const sessions = createMemorySessionStore(config);
  const graph = new GraphClient({
    graphUrl: config.graphUrl,
    apiVersion: config.apiVersion,
    appId: config.appId,
    appSecret: config.appSecret,
    redirectUri: config.callbackUrl,
    timeoutMs: config.providerTimeoutMs,
    logger,
    retry: { retries: 1, baseMs: 10, capMs: 50, deadlineMs: 4000 },
  });
  const app = createApp(config, { graph, sessions, logger, ...(options.now ? { now: options.now } : {}) });
  return {
    app,
    config,
    emulator,
    logs,
    sessions,
    graph,
    close: async () => {
      graph.close();
      await sessions.close();
      await emulator.close();
    },
  };
}

export type Agent = ReturnType<typeof request.agent>;

export function agentFor(stack: Stack): Agent {
  return request.agent(stack.app);
}
