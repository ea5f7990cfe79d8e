import type { RunningEmulator } from '@pagelight/graph-emulator';

const CREDENTIAL_PARAMS = [
  'access_token',
  'client_secret',
  'code',
  'code_verifier',
  'appsecret_proof',
  'fb_exchange_token',
  'nonce',
];

/** Every credential the emulator issued or received: tokens, codes, verifiers, proofs, the secret. */
export function credentialsSeenBy(emulator: RunningEmulator, appSecret: string): Set<string> {
  const found = new Set<string>([appSecret, ...emulator.controls.issuedTokens()]);
  for (const entry of emulator.controls.log) {
    for (const [name, value] of Object.entries({ ...entry.query, ...entry.form })) {
      if (CREDENTIAL_PARAMS.includes(name) && typeof value === 'string' && value.length >= 8) found.add(value);
    }
  }
  return found;
}

/** Log lines that hold any of the credentials, shortened so the failure message itself leaks nothing whole. */
export function leakedLines(lines: readonly string[], credentials: Set<string>): string[] {
  const leaks: string[] = [];
  for (const line of lines) {
    for (const secret of credentials) {
      if (line.includes(secret)) leaks.push(`${secret.slice(0, 6)}… in: ${line.slice(0, 300)}`);
    }
  }
  return leaks;
}
