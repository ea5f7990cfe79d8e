// openid-client's side of test/fidelity/openid-client.test.ts, in a process of its own: openid-client 6 is an
// ES module only, which jest's CommonJS runtime (ts-jest) cannot load. It speaks in JSON lines: it prints
// {"authorize": url}, reads the callback URL the dialog sent the browser to, then prints what it made of the
// answer ({"claims", "tokenType"}), or {"error"} and exits 1. docs/fidelity.md.
import { createInterface } from 'node:readline';
import * as client from 'openid-client';

const { EMULATOR_URL, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, TOKEN_ENDPOINT } = process.env;
const say = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const input = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

try {
  // Discovery over plain http, which openid-client allows only when told (the emulator listens on loopback).
  const discovered = await client.discovery(new URL(EMULATOR_URL), CLIENT_ID, CLIENT_SECRET, undefined, {
    execute: [client.allowInsecureRequests],
  });
  // Like the provider's, the discovery document names no token endpoint: the client is told it.
  const server = { ...discovered.serverMetadata(), token_endpoint: TOKEN_ENDPOINT };
  const config = new client.Configuration(server, CLIENT_ID, CLIENT_SECRET);
  client.allowInsecureRequests(config);

  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid public_profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
  });
  say({ authorize: url.href, tokenEndpointAdvertised: discovered.serverMetadata().token_endpoint ?? null });
  const callback = (await input.next()).value;
  const tokens = await client.authorizationCodeGrant(config, new URL(callback), {
    pkceCodeVerifier: verifier,
    expectedNonce: nonce,
    expectedState: state,
  });
  say({ claims: tokens.claims(), tokenType: tokens.token_type });
  process.exit(0);
} catch (err) {
  say({ error: `${err.name}: ${err.message}${err.cause ? ` (${JSON.stringify(err.cause)})` : ''}` });
  process.exit(1);
}
