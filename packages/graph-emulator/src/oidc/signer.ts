/**
 * The emulator's OpenID Connect signing key and its ID tokens. The real
 * provider signs ID tokens with RS256 and publishes its public keys as a JWKS
 * (OIDC Code Flow with PKCE for Manually Built Facebook Login Flows; Validating
 * the Limited Login OIDC Token). The key is made on first use, with
 * node:crypto and no network, so emulators that never issue an ID token pay
 * nothing for it.
 */
import { generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
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

export class IdTokenSigner {
  private key: Key | undefined;

  /** The public keys, as served at the JWKS endpoint. */
  jwks(): { keys: JsonWebKey[] } {
    const { kid, publicJwk } = this.current();
    return { keys: [{ ...publicJwk, kid, use: 'sig', alg: 'RS256' }] };
  }

  /** A compact JWS (RS256) with a `kid` header naming the key that signed it. */
  sign(claims: IdTokenClaims): string {
    const { kid, privateKey } = this.current();
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
    const input = `${encode({ alg: 'RS256', kid, typ: 'JWT' })}.${encode(claims)}`;
    return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
  }

  private current(): Key {
    if (this.key === undefined) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      this.key = { kid: randomAlnum(16), privateKey, publicJwk: publicKey.export({ format: 'jwk' }) };
    }
    return this.key;
  }
}

/** A token id, unique per token. */
export function newJti(): string {
  return randomId(16);
}
