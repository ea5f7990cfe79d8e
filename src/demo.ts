import { withProvider, type Config } from './config';
import { JWKS_PATH } from './graph/provider';
import type { Logger } from './log/logger';

/** The demo's provider: the configuration now pointing at it, and how to stop it. */
export interface DemoProvider {
  config: Config;
  emulator: { close(): Promise<void> };
}

/**
 * Demo mode (FB_APP_ID unset): starts the provider emulator on PROVIDER_PORT and returns the configuration
 * rewritten to use it. Loaded only in demo mode, so a configured (production) app never loads the emulator.
 */
export async function startDemoProvider(config: Config, logger: Logger): Promise<DemoProvider> {
  const { appUrls, DEMO_CLIENT, startEmulator } = await import('@pagelight/graph-emulator');
  // Where the emulator delivers page webhooks, and the token its handshake must present.
  const client = {
    ...DEMO_CLIENT,
    // The emulator's demo app is neutral; the dialog and the provider's settings page name this app.
    name: 'Pagelight (demo)',
    // Registered like the provider's dashboard fields: deauthorize and data-deletion callbacks too.
    ...appUrls(config.baseUrl),
    redirectUri: config.callbackUrl,
    webhookUrl: `http://127.0.0.1:${config.port}/webhooks/facebook`,
    webhookVerifyToken: config.webhookVerifyToken,
  };
  const running = await startEmulator({
    port: config.providerPort,
    host: '127.0.0.1',
    clients: [client],
    // The demo is driven from outside (the browser suite, the benchmark) through the HTTP controls.
    httpControls: true,
    // EMULATOR_ACTIVITY=on: a post now and then, so a person trying the demo sees one arrive live.
    activity: config.emulatorActivity,
    // Realistic content; the tests load the hostile test seed through the seed control.
    seed: 'demo',
  });
  // The browser goes to the dialog by the app's own host name; the server calls the API on loopback.
  const base = new URL(config.baseUrl);
  const dialogOrigin = `${base.protocol}//${base.hostname}:${running.port}`.replace('https:', 'http:');
  logger.warn(
    { providerUrl: running.url },
    `demo mode: FB_APP_ID is unset, so the built-in provider emulator serves the login dialog at ${dialogOrigin}`,
  );
  return {
    emulator: running,
    config: withProvider(config, {
      appId: DEMO_CLIENT.clientId,
      appSecret: DEMO_CLIENT.clientSecret,
      authUrl: dialogOrigin,
      graphUrl: running.url,
      // The emulator signs id_tokens as its own origin and serves its keys there; the server reads them on loopback.
      oidcIssuer: running.url,
      jwksUrl: `${running.url}${JWKS_PATH}`,
      // The seed's pictures are served by the emulator on its own origin.
      imageOrigin: running.url,
    }),
  };
}
