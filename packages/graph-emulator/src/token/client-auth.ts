/**
 * Client authentication at the token endpoint. The provider documents
 * `client_id` + `client_secret` as parameters; RFC 6749 §2.3.1 also defines
 * HTTP Basic (the default of most OAuth 2.0 libraries), so both are accepted.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { Context } from '../context';
import { GraphError } from '../errors';
import type { EmulatorClient } from '../types';

interface BasicCredentials {
  id: string;
  secret: string;
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before being joined with ":". */
function parseBasic(header: string | undefined): BasicCredentials | undefined {
  const match = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (match?.[1] === undefined) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new GraphError({ code: 101, message: 'Error validating application. Invalid application ID.' });
  const formDecode = (s: string): string => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw new GraphError({ code: 101, message: 'Error validating application. Invalid application ID.' });
    }
  };
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

function sameSecret(a: string, b: string): boolean {
  // Hash first so the comparison is constant-time regardless of lengths.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * The authenticated client, or the provider's error: 101 for a missing or
 * unknown client id, 1 "Error validating client secret." for a bad secret.
 */
export function authenticateClient(ctx: Context, req: Request, params: Record<string, string>): EmulatorClient {
  const basic = parseBasic(req.get('authorization'));
  const id = basic?.id ?? params.client_id;
  if (id === undefined || id === '') throw new GraphError({ code: 101, message: 'Missing client_id parameter.' });
  // Two methods that disagree are refused rather than one being picked (RFC 6749 §2.3).
  if (basic !== undefined && params.client_id !== undefined && params.client_id !== basic.id) {
    throw new GraphError({ code: 101, message: 'Error validating application. Invalid application ID.' });
  }
  const client = ctx.clients.get(id);
  if (client === undefined) {
    throw new GraphError({ code: 101, message: 'Error validating application. Invalid application ID.' });
  }
  const secrets = [basic?.secret, params.client_secret].filter((s): s is string => s !== undefined);
  if (secrets.length === 0) throw new GraphError({ code: 100, message: 'Missing client_secret parameter.' });
  if (!secrets.every((s) => sameSecret(s, client.clientSecret))) {
    // As client libraries capture it from the provider: code 1 at 400 without is_transient (docs/specification.md#client-authentication).
    throw new GraphError({ code: 1, status: 400, transient: false, message: 'Error validating client secret.' });
  }
  return client;
}
