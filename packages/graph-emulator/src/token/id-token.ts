/**
 * The ID token of the provider's OIDC code flow: returned by the code
 * exchange when the login asked for the `openid` scope, signed RS256 by the
 * emulator's key, with the claims the provider documents for its OIDC token
 * (iss, aud, sub, iat, exp, jti, nonce, name…). docs/specification.md#pkce
 */
import type { Context } from '../context';
import { newJti, ID_TOKEN_TTL_SEC, type IdTokenClaims } from '../oidc/signer';
import { OPENID_SCOPE } from '../permissions';
import type { CodeRecord } from '../store/codes';

export async function idTokenFor(ctx: Context, code: CodeRecord): Promise<string | undefined> {
  if (!code.granted.includes(OPENID_SCOPE)) return undefined;
  const user = ctx.data.user(code.userId);
  const iat = Math.floor(ctx.now() / 1000);
  const claims: IdTokenClaims = {
    iss: ctx.publicUrl,
    aud: code.clientId,
    sub: code.userId,
    iat,
    exp: iat + ID_TOKEN_TTL_SEC,
    jti: newJti(),
    ...(code.nonce !== undefined ? { nonce: code.nonce } : {}),
    ...(user !== undefined ? { name: user.name, given_name: user.first_name, family_name: user.last_name } : {}),
    ...(user?.email !== undefined && code.granted.includes('email') ? { email: user.email } : {}),
  };
  return ctx.signer.sign(claims);
}
