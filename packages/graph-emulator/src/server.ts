/** Runs an emulator on a real socket (port 0 = ephemeral), for tests and `main.ts`. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildEmulator } from './app';
import { loopbackAddress } from './hosts';
import type { EmulatorOptions, RunningEmulator } from './types';

export async function startEmulator(
  opts: EmulatorOptions & { port?: number; host?: string; expose?: boolean },
): Promise<RunningEmulator> {
  const { port = 0, host = '127.0.0.1', expose = false, ...options } = opts;
  // The production guard (README#production-guard): its controls have no authentication, so an address other
  // machines reach, or a privileged port a real service would hold, takes an explicit `expose`.
  if (!expose && !loopbackAddress(host)) {
    throw new Error(`startEmulator: host ${host} is not a loopback address; pass expose: true to listen on it`);
  }
  if (!expose && port !== 0 && port < 1024) {
    throw new Error(`startEmulator: port ${port} is a privileged port; pass expose: true to listen on it`);
  }
  // Checked before listening, so a bad option leaves no server behind.
  const activity = activityOptions(options.activity);
  const { app, controls, ctx } = buildEmulator(options);
  const server = createServer(app);
  // The ID-token key is made off the event loop while the server binds, and
  // is ready before the first code exchange can ask for it.
  await Promise.all([
    ctx.signer.ready(),
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    }),
  ]);
  const actualPort = (server.address() as AddressInfo).port;
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${actualPort}`;
  ctx.port = actualPort;
  if (options.publicUrl === undefined) ctx.publicUrl = url;
  if (activity !== undefined) ctx.activity.start(activity.intervalMs, activity.maxPosts);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      ctx.faults.dispose();
      ctx.activity.stop();
      ctx.webhooks.dispose();
      server.close(() => resolve());
      // Keep-alive and hanging requests would otherwise hold close() open.
      server.closeAllConnections();
    });
    return closing;
  };
  return { url, port: actualPort, controls, close };
}

/** README#activity: off unless asked for; at least a second between posts. */
function activityOptions(given: EmulatorOptions['activity']): { intervalMs: number; maxPosts: number } | undefined {
  if (given === undefined || given === false) return undefined;
  const { intervalMs = 20_000, maxPosts = 200 } = given === true ? {} : given;
  if (!Number.isFinite(intervalMs) || intervalMs < 1000)
    throw new Error('startEmulator: activity.intervalMs must be ≥ 1000');
  if (!Number.isInteger(maxPosts) || maxPosts < 1)
    throw new Error('startEmulator: activity.maxPosts must be a positive integer');
  return { intervalMs, maxPosts };
}
