import type { SeedName } from '@pagelight/graph-emulator';
import type { Stack } from './stack';

/** Requests the app made to the token endpoint so far. */
export function tokenCalls(stack: Pick<Stack, 'emulator'>): number {
  return stack.emulator.controls.calls({ path: 'oauth/access_token' });
}

/** Every API request (token endpoint and Graph) the app made so far. */
export function graphCalls(stack: Pick<Stack, 'emulator'>): number {
  return stack.emulator.controls.calls();
}

/**
 * Loads a seed (`test`: what the suites assert on; `demo`: what people see) in
 * an emulator running as its own process, through its seed control.
 */
export async function loadSeed(emulatorUrl: string, name: SeedName): Promise<void> {
  await control(emulatorUrl, 'PUT', '/seed', { name });
}

/**
 * One of the emulator's test controls (/__emulator/*) over HTTP, for an emulator
 * running as its own process. Resolves to the JSON answer, or undefined on 204.
 */
export async function control(
  emulatorUrl: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  route: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${emulatorUrl}/__emulator${route}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`emulator control ${route} answered ${res.status}: ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}
