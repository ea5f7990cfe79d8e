import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig, operatorWarning, proxyWarning, type Config } from './config';
import { createApp } from './app';
import { startDemoProvider, type DemoProvider } from './demo';
import { createLimitedServer, serverLimits } from './http/limits';
import { graphClientFor } from './graph/client';
import { createLogger } from './log/logger';
import { StreamRegistry } from './live/streams';
import { createSessionStore } from './session/create';
import { shutdown, type Closer } from './shutdown';

/** The only module that listens. Everything is built by createApp. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`pagelight: configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({
    level: config.logLevel,
    pretty: config.nodeEnv === 'development' && process.stdout.isTTY && canPretty(),
  });

  let emulator: DemoProvider['emulator'] | undefined;
  if (config.demo) {
    const demo = await listenOrExit(() => startDemoProvider(config, logger), 'PROVIDER_PORT', config.providerPort);
    config = demo.config;
    emulator = demo.emulator;
  }
  const proxy = proxyWarning(config);
  if (proxy) logger.warn(proxy);
  const operator = operatorWarning(config);
  if (operator) logger.warn(operator);
  if (config.sessionSecretGenerated)
    logger.warn('SESSION_SECRET is unset: a random one is used, so sessions end when the process stops');

  const sessions = await createSessionStore(config, logger);
  const graph = graphClientFor(config, logger);
  const streams = new StreamRegistry(config.liveStreamsPerSession, config.liveStreamsMax);
  const app = createApp(config, { graph, sessions, logger, streams });
  const server = await listenOrExit(
    () => listen(createLimitedServer(app, serverLimits({ maxConnections: config.maxConnections })), config.port),
    'PORT',
    config.port,
  );
  const port = (server.address() as AddressInfo).port;
  logger.info(
    { port, store: sessions.kind },
    `Pagelight is listening on ${config.baseUrl} (port ${port}, sessions in ${sessions.kind})`,
  );

  const closers: Closer[] = [
    { name: 'the provider agents', close: () => graph.close() },
    { name: 'the session store', close: () => sessions.close() },
    ...(emulator ? [{ name: 'the emulator', close: () => emulator.close() }] : []),
  ];
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: finishing in-flight requests, then stopping`);
    const force = setTimeout(() => {
      logger.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    // Live-update streams never finish by themselves; tabs reconnect to another instance.
    streams.closeAll();
    void shutdown(server, closers, logger).then(
      () => {
        logger.info('stopped');
        logger.flush?.();
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

function listen(server: Server, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('listening', () => resolve(server));
    server.once('error', reject);
    server.listen(port);
  });
}

async function listenOrExit<T>(start: () => Promise<T>, variable: string, port: number): Promise<T> {
  try {
    return await start();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      process.stderr.write(
        `pagelight: configuration error: ${variable}: port ${port} is ${code === 'EADDRINUSE' ? 'already in use' : 'not allowed'}; set ${variable} to a free port\n`,
      );
      process.exit(1);
    }
    throw err;
  }
}

function canPretty(): boolean {
  try {
    require.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`pagelight: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
