/**
 * The emulator's OpenID Connect signing key and its ID tokens. The real
 * provider signs ID tokens with RS256 and publishes its public keys as a JWKS
 * (OIDC Code Flow with PKCE for Manually Built Facebook Login Flows; Validating
 * the Limited Login OIDC Token). The key is made with node:crypto and no
 * network, on libuv's thread pool: a 2048-bit RSA key takes a few hundred
 * milliseconds of CPU, which made synchronously would stall every request and
 * timer in the process (under load, long enough for an app's provider timeout
 * to fire during the code exchange).
 */
import { generateKeyPair, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { randomAlnum, randomId } from '../random';

/** Lifetime of an ID token: one hour, as the provider's tokens are issued. */
export const ID_TOKEN_TTL_SEC = 3600;

export interface IdTokenClaims {
  iss: string;
  aud: string;
  /** The app-scoped user id. */
  sub: string;
  iat: number;
  exp: number;
  jti: string;
  nonce?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
}

interface Key {
  kid: string;
  privateKey: KeyObject;
  publicJwk: JsonWebKey;
}

const generateRsaKeyPair = promisify(generateKeyPair);

/**
 * The process's one key, made on first use. The provider signs every app's ID tokens with the keys of its
 * one JWKS, so emulators in one process share theirs too; a key each cost a test run over a hundred keys of
 * about 250 ms of CPU apiece.
 */
let processKey: Promise<Key> | undefined;

function makeKey(): Promise<Key> {
  return generateRsaKeyPair('rsa', { modulusLength: 2048 }).then(({ privateKey, publicKey }) => ({
    kid: randomAlnum(16),
    privateKey,
    publicJwk: publicKey.export({ format: 'jwk' }),
  }));
}

export class IdTokenSigner {
  /**
   * Starts making the process's key if it is not under way, and resolves once
   * it is made. `startEmulator` awaits it, so a running emulator never makes a
   * code exchange wait for its key; an app from `createEmulator` makes it on
   * first use, so emulators driven in process that never sign pay nothing.
   */
  async ready(): Promise<void> {
    await this.current();
  }

  /** The public keys, as served at the JWKS endpoint. */
  async jwks(): Promise<{ keys: JsonWebKey[] }> {
    const { kid, publicJwk } = await this.current();
    return { keys: [{ ...publicJwk, kid, use: 'sig', alg: 'RS256' }] };
  }

  /** A compact JWS (RS256) with a `kid` header naming the key that signed it. */
  async sign(claims: IdTokenClaims): Promise<string> {
    const { kid, privateKey } = await this.current();
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
    const input = `${encode({ alg: 'RS256', kid, typ: 'JWT' })}.${encode(claims)}`;
    return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
  }

  private current(): Promise<Key> {
    processKey ??= makeKey();
    return processKey;
  }
}

/** A token id, unique per token. */
export function newJti(): string {
  return randomId(16);
}
