import type { Stack } from './stack';

/** Requests the app made to the token endpoint so far. */
export function tokenCalls(stack: Pick<Stack, 'emulator'>): number {
  return stack.emulator.controls.calls({ path: 'oauth/access_token' });
}

/** Every API request (token endpoint and Graph) the app made so far. */
export function graphCalls(stack: Pick<Stack, 'emulator'>): number {
  return stack.emulator.controls.calls();
}
