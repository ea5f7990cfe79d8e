import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../config';
import { IdTokenError } from './errors';

/** Who logged in, as the verified id_token says. */
export interface Identity {
  /** The app-scoped user id (`sub`). */
  userId: string;
  userName?: string;
}

/** How long the provider's keys are kept before they are fetched again (a key the cache lacks is fetched at once). */
const JWKS_MAX_AGE_MS = 10 * 60_000;
/** A token signed by a key the cache lacks refetches the JWKS at most this often. */
const JWKS_COOLDOWN_MS = 30_000;
/** Leeway for clocks that disagree a little. */
const CLOCK_TOLERANCE_SEC = 60;

/**
 * Verifies the id_token of the provider's OIDC code flow
 * (docs/provider-interface.md#pkce): an RS256 signature by a key of the
 * provider's JWKS, the issuer (the dialog's origin), the audience (our app
 * id), this login's nonce and the expiry. The JWKS is fetched once and kept.
 */
export class IdTokenVerifier {
  private keys: JWTVerifyGetKey | undefined;

  constructor(
    private readonly config: Pick<Config, 'jwksUrl' | 'oidcIssuer' | 'appId' | 'providerTimeoutMs'>,
    private readonly now: () => number,
  ) {}

  async verify(idToken: string | undefined, nonce: string | undefined): Promise<Identity> {
    if (idToken === undefined) throw new IdTokenError('missing');
    if (nonce === undefined) throw new IdTokenError('no_nonce');
    // Not through the provider transport: the JWKS is on the login origin, no Graph call (no budget, no Graph errors), and jose caches it and refetches an unknown kid.
    this.keys ??= createRemoteJWKSet(new URL(this.config.jwksUrl), {
      timeoutDuration: this.config.providerTimeoutMs,
      cooldownDuration: JWKS_COOLDOWN_MS,
      cacheMaxAge: JWKS_MAX_AGE_MS,
    });
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.keys, {
        algorithms: ['RS256'],
        issuer: this.config.oidcIssuer,
        audience: this.config.appId,
        requiredClaims: ['sub', 'exp', 'iat', 'nonce'],
        currentDate: new Date(this.now()),
        clockTolerance: CLOCK_TOLERANCE_SEC,
      }));
    } catch (err) {
      throw new IdTokenError(reasonOf(err), { cause: err });
    }
    // Compared after the signature: only then is the claim the provider's word.
    if (payload.nonce !== nonce) throw new IdTokenError('nonce');
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new IdTokenError('claims');
    const name = typeof payload.name === 'string' && payload.name.length <= 1000 ? payload.name : undefined;
    return { userId: payload.sub, ...(name !== undefined ? { userName: name } : {}) };
  }
}

/** A short reason for the log; the person reads one sentence whatever it is. */
function reasonOf(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `claim ${err.claim}`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'signature';
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'unknown key';
  if (err instanceof joseErrors.JWKSTimeout) return 'jwks timeout';
  if (err instanceof joseErrors.JOSEError) return err.code;
  return 'jwks unavailable';
}
