#!/usr/bin/env node
/**
 * `npm run provider`: the emulator on its own, on PROVIDER_PORT (see its README).
 * Binds loopback unless EMULATOR_EXPOSE=on — its /__emulator controls are unauthenticated (README#production-guard).
 */
import { loadProviderEnv, maskSecret, ProviderEnvError, type ProviderEnv } from './env';
import { startEmulator } from './server';
import type { RunningEmulator } from './types';

async function main(): Promise<void> {
  let env: ProviderEnv;
  try {
    env = loadProviderEnv(process.env);
  } catch (err) {
    if (err instanceof ProviderEnvError) {
      console.error(`graph-emulator: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }

  let running: RunningEmulator;
  try {
    running = await startEmulator({
      clients: [env.client],
      port: env.port,
      host: env.host,
      expose: env.expose,
      hosts: env.hosts,
      httpControls: true,
      profile: env.profile,
      activity: env.activity,
      seed: env.seed,
      emptyFeedPages: env.emptyFeedPages,
      removedFields: env.removedFields,
      failNext: env.failNext,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'is already in use' : `cannot be used (${code ?? String(err)})`;
    console.error(`graph-emulator: PROVIDER_PORT ${env.port} ${why}`);
    process.exit(1);
  }

  const { client } = env;
  console.log(
    `graph-emulator listening on ${running.url} — client_id ${client.clientId}, ` +
      `secret ${maskSecret(client.clientSecret)}, redirect_uri ${client.redirectUri}${env.demo ? ' (demo client)' : ''}, ` +
      `profile ${env.profile}, seed ${typeof env.seed === 'string' ? env.seed : (env.seedFile ?? 'custom')}; settings page ${running.url}/settings/apps` +
      (env.activity ? ' — activity on: a post now and then' : ''),
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(1); // a second signal: stop waiting
    stopping = true;
    console.log(`graph-emulator: ${signal} received, closing`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
