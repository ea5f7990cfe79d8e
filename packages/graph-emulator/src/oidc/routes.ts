/**
 * The provider's OIDC endpoints, at the paths it documents on its own origin:
 * the JWKS (`/.well-known/oauth/openid/jwks/`) and the discovery document
 * (`/.well-known/openid-configuration/`). Served before the request log, like
 * the dialog's assets: fetching keys is not an API call and never fails.
 */
import { Router } from 'express';
import type { Context } from '../context';
import { ALL_PERMISSIONS } from '../permissions';
import { ACCEPTED_RESPONSE_TYPES } from '../dialog/validate';

export const JWKS_PATH = '/.well-known/oauth/openid/jwks/';
const DISCOVERY_PATH = '/.well-known/openid-configuration/';

export function oidcRouter(ctx: Context): Router {
  const router = Router();
  router.get([JWKS_PATH, JWKS_PATH.slice(0, -1)], async (_req, res) => {
    const jwks = await ctx.signer.jwks();
    res.set('Cache-Control', 'public, max-age=3600');
    res.json(jwks);
  });
  router.get([DISCOVERY_PATH, DISCOVERY_PATH.slice(0, -1)], (_req, res) => {
    res.json({
      issuer: ctx.publicUrl,
      authorization_endpoint: `${ctx.publicUrl}/dialog/oauth/`,
      jwks_uri: `${ctx.publicUrl}${JWKS_PATH}`,
      // Exactly what the dialog accepts (dialog/validate.ts; test/discovery.test.ts): an OIDC client
      // that picked `id_token` from here would be sent to an error page.
      response_types_supported: ACCEPTED_RESPONSE_TYPES,
      response_modes_supported: ['query', 'fragment'],
      code_challenge_methods_supported: ['S256', 'plain'],
      scopes_supported: ALL_PERMISSIONS,
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      claims_supported: [
        'iss',
        'aud',
        'sub',
        'iat',
        'exp',
        'jti',
        'nonce',
        'name',
        'given_name',
        'family_name',
        'email',
      ],
    });
  });
  return router;
}
