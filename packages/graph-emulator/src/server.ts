/** Runs an emulator on a real socket (port 0 = ephemeral), for tests and `main.ts`. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildEmulator } from './app';
import type { EmulatorOptions, RunningEmulator } from './types';

export async function startEmulator(
  opts: EmulatorOptions & { port?: number; host?: string },
): Promise<RunningEmulator> {
  const { port = 0, host = '127.0.0.1', ...options } = opts;
  const { app, controls, ctx } = buildEmulator(options);
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${actualPort}`;
  ctx.port = actualPort;
  if (options.publicUrl === undefined) ctx.publicUrl = url;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      ctx.faults.dispose();
      server.close(() => resolve());
      // Keep-alive and hanging requests would otherwise hold close() open.
      server.closeAllConnections();
    });
    return closing;
  };
  return { url, port: actualPort, controls, close };
}
