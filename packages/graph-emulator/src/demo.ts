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

/** The demo client with its callback, `${baseUrl}/auth/callback` (docs/architecture.md#configuration). */
export function demoClient(baseUrl: string): EmulatorClient {
  return { ...DEMO_CLIENT, redirectUri: `${baseUrl.replace(/\/+$/, '')}/auth/callback` };
}
