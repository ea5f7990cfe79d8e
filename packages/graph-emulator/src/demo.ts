/**
 * The client the emulator registers when no real app is configured. The
 * app's demo mode imports the same values so both sides agree.
 */
import type { EmulatorClient } from './types';

export const DEMO_CLIENT = Object.freeze({
  clientId: '1234567890123456',
  clientSecret: 'demo-app-secret-not-for-production',
  name: 'Pagelight (demo)',
});

/** The demo client with its callback, `${baseUrl}/auth/callback` (docs/architecture.md#configuration), and its provider callbacks. */
export function demoClient(baseUrl: string): EmulatorClient {
  return { ...DEMO_CLIENT, ...appUrls(baseUrl) };
}

/**
 * The URLs an app at `baseUrl` registers with the provider: the redirect URI
 * and the callbacks for removing the app and requesting deletion (package
 * README, "Removing an app").
 */
export function appUrls(baseUrl: string): Pick<EmulatorClient, 'redirectUri' | 'deauthorizeUrl' | 'dataDeletionUrl'> {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    redirectUri: `${base}/auth/callback`,
    deauthorizeUrl: `${base}/auth/deauthorize`,
    dataDeletionUrl: `${base}/auth/data-deletion`,
  };
}
