import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig, operatorWarning, proxyWarning, versionWarning, type Config } from './config';
import { createApp } from './app';
import { buildContext, contextClosers } from './context';
import { startDemoProvider, type DemoProvider } from './demo';
import { createLimitedServer, serverLimits } from './http/server-limits';
import { createLogger } from './log/logger';
import { tracingFor } from './observe/tracing';
import { redisFor } from './redis';
import { hostProblem, listenProblem, listeningLine } from './http/listening';
import { shutdown, type Closer } from './shutdown';

/**
 * The only module that listens. Top to bottom: configuration, the demo provider (FB_APP_ID unset), the
 * context (src/context.ts), the app (src/app.ts), listening, then the signals that stop it.
 */
async function main(): Promise<void> {
  let config = configOrExit();
  const badHost = await hostProblem(config.host);
  if (badHost !== undefined) exitOnConfig(`HOST: ${badHost}`);
  const logger = createLogger({
    level: config.logLevel,
    pretty: config.nodeEnv === 'development' && process.stdout.isTTY && canPretty(),
  });

  let emulator: DemoProvider['emulator'] | undefined;
  if (config.demo) {
    const demo = await listenOrExit(
      () => startDemoProvider(config, logger),
      ['PROVIDER_PORT', config.providerPort],
      ['HOST', '127.0.0.1'],
    );
    config = demo.config;
    emulator = demo.emulator;
  }
  for (const warning of [proxyWarning(config), operatorWarning(config), versionWarning(config, Date.now())])
    if (warning) logger.warn(warning);
  if (config.sessionSecretGenerated)
    logger.warn('SESSION_SECRET is unset: a random one is used, so sessions end when the process stops');

  const tracing = await tracingFor(config, logger);
  const ctx = buildContext(config, { logger, redis: await redisFor(config, logger), ...(tracing ? { tracing } : {}) });
  const app = createApp(ctx);
  const server = await listenOrExit(
    () =>
      listen(
        createLimitedServer(app, serverLimits({ maxConnections: config.maxConnections })),
        config.port,
        config.host,
      ),
    ['PORT', config.port],
    ['HOST', config.host],
  );
  const { port, address } = server.address() as AddressInfo;
  const store = ctx.sessions.kind;
  logger.info({ port, host: address, store }, listeningLine(config, address, port, store));

  // Metrics on their own listener, never the public port (docs/operations.md#metrics).
  const { metrics } = ctx;
  const metricsServer =
    metrics && config.metrics
      ? await listenOrExit(
          () => listenOn(createServer(metrics.handler), config.metrics!.port, config.metrics!.host),
          ['METRICS_PORT', config.metrics.port],
          ['METRICS_HOST', config.metrics.host],
        )
      : undefined;
  if (metricsServer)
    logger.info(`metrics on http://${config.metrics!.host}:${(metricsServer.address() as AddressInfo).port}/metrics`);

  const closers: Closer[] = [
    ...(metricsServer ? [{ name: 'the metrics listener', close: () => closeServer(metricsServer) }] : []),
    ...contextClosers(ctx),
    ...(emulator ? [{ name: 'the emulator', close: () => emulator.close() }] : []),
  ];
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const drainSec = config.shutdownDrainSec;
    logger.info(
      drainSec > 0
        ? `${signal}: /readyz now answers 503; still serving for ${drainSec} s (SHUTDOWN_DRAIN_SECONDS), then finishing in-flight requests and stopping`
        : `${signal}: finishing in-flight requests, then stopping`,
    );
    const force = setTimeout(
      () => {
        logger.error(`shutdown took longer than ${drainSec + 10} s; exiting`);
        process.exit(1);
      },
      (drainSec + 10) * 1000,
    );
    force.unref();
    void shutdown(server, closers, logger, {
      readiness: ctx.readiness,
      drainMs: drainSec * 1000,
      // Live-update streams never finish by themselves; tabs reconnect to another instance.
      beforeClose: () => ctx.streams.closeAll(),
    }).then(
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

/** The configuration, or a line naming the bad variable and exit 1. */
function configOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) exitOnConfig(err.message);
    throw err;
  }
}

function listen(server: Server, port: number, host: string | undefined): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('listening', () => resolve(server));
    server.once('error', reject);
    if (host === undefined) server.listen(port);
    else server.listen(port, host);
  });
}

function listenOn(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('listening', () => resolve(server));
    server.once('error', reject);
    server.listen(port, host);
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

async function listenOrExit<T>(
  start: () => Promise<T>,
  [portVariable, port]: [string, number],
  [hostVariable, host]: [string, string | undefined],
): Promise<T> {
  try {
    return await start();
  } catch (err) {
    const problem = listenProblem(
      (err as { code?: string }).code,
      { variable: portVariable, value: port },
      { variable: hostVariable, value: host },
    );
    if (problem !== undefined) exitOnConfig(problem);
    throw err;
  }
}

/** One line naming the variable at fault, and exit 1: the same words whether the schema or the system refused it. */
function exitOnConfig(line: string): never {
  process.stderr.write(`pagelight: configuration error: ${line}\n`);
  process.exit(1);
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
