/**
 * The client the emulator registers when no real app is configured: a neutral
 * demo app. An app using it names itself (`{ ...DEMO_CLIENT, name }`); its id
 * and secret are what both sides must agree on.
 */
import type { EmulatorClient } from './types';

export const DEMO_CLIENT = Object.freeze({
  clientId: '1234567890123456',
  clientSecret: 'demo-app-secret-not-for-production',
  name: 'Demo App',
});

/** The demo client with its callback, `${baseUrl}/auth/callback`, and its provider callbacks (README#on-its-own). */
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
