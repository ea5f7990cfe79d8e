import { z } from 'zod';

/**
 * What this app keeps in a session, read through one schema whenever a
 * session comes back from the store. A part that does not match — written by
 * an older version of the app, or tampered with in Redis — is dropped: the
 * person reads as not connected (or restarts the login) instead of meeting a
 * 500. Unknown keys are left behind.
 */

/** A login started in one tab and not yet finished (RFC 6749 §10.12, RFC 7636). */
export const pendingLoginSchema = z.object({
  state: z.string(),
  /** PKCE code_verifier, when the login sent a challenge (FB_PKCE=on). */
  verifier: z.string().optional(),
  /** OpenID Connect nonce, when the login asked for `openid`: the id_token must carry it. */
  nonce: z.string().optional(),
  /** Epoch ms. */
  createdAt: z.number().finite(),
  /** The page the person asked for when the login began, re-checked when used. */
  returnTo: z.string().max(600).optional().catch(undefined),
});

/** A connected page: its sealed page token and its name for the home page. */
export const connectedPageSchema = z.object({
  token: z.string(),
  name: z.string(),
  /** The person's role on the page (`tasks` from /me/accounts, sorted), once known: part of the page cache's key. */
  tasks: z.array(z.string()).optional().catch(undefined),
  /** When this session's own tokens last succeeded upstream for the page (epoch ms): bounds its use of the shared cache. */
  tokenConfirmedAt: z.number().finite().optional().catch(undefined),
  /** The app subscribed the page to webhooks when it was connected: its view gets live updates. */
  live: z.boolean().optional().catch(undefined),
});

export const signInSchema = z.object({
  /** The sealed user token. */
  userToken: z.string(),
  /** When the user token expires (epoch ms), null when the provider gave no expiry. */
  expiresAt: z.number().finite().nullable(),
  /** When the person logged in (epoch ms): the absolute lifetime counts from here. */
  loggedInAt: z.number().finite(),
  /** Permissions granted at login. */
  scopes: z.array(z.string()).optional(),
  /** The provider's app-scoped user id: the session index's key. */
  userId: z
    .string()
    .regex(/^\d{1,32}$/)
    .optional()
    .catch(undefined),
  /** The person's name, for "Signed in as". */
  userName: z.string().max(1000).optional().catch(undefined),
  pages: z.record(z.string(), connectedPageSchema),
});

/** A message of the catalogs (src/i18n/catalogs.ts), checked again against them when shown. */
export const flashSchema = z.object({
  key: z.string().max(100),
  values: z.record(z.string(), z.union([z.string().max(1000), z.number()])).optional(),
});

/** Each part fails alone: a bad sign-in does not cost the CSRF token, and the reverse. */
const part = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const storedSessionSchema = z.object({
  /** express-session's own; without it the value is not a session. */
  cookie: z.record(z.string(), z.unknown()),
  pending: part(z.array(pendingLoginSchema)),
  signIn: part(signInSchema),
  csrf: part(z.string()),
  /** A one-time message for the next page: a message key and its arguments, said in the page's language. */
  flash: part(flashSchema),
  /** The time zone the person last published in, an IANA name (checked again where it is used). */
  timeZone: part(z.string().regex(/^[A-Za-z_/+-]{1,64}$/)),
  /** Set when the provider told us the person removed the app: a write of the older content is refused. */
  signedOutAt: part(z.number().finite()),
});

export type PendingLogin = z.infer<typeof pendingLoginSchema>;
export type Flash = z.infer<typeof flashSchema>;
export type ConnectedPage = z.infer<typeof connectedPageSchema>;
export type SignIn = z.infer<typeof signInSchema>;
export type StoredSession = z.infer<typeof storedSessionSchema>;

/**
 * Sessions written before the sign-in had its name kept it under `connection`: read under the new name, so the
 * upgrade signs nobody out. None is left SESSION_MAX_SECONDS after it; then this can go (and the `connection` in ./redis.ts OWNER).
 */
function renamed(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('connection' in value) || 'signIn' in value) return value;
  const { connection, ...rest } = value as Record<string, unknown>;
  return { ...rest, signIn: connection };
}

/** A stored value as the app may use it, or undefined when it is not a session at all. */
export function readStoredSession(value: unknown): StoredSession | undefined {
  const parsed = storedSessionSchema.safeParse(renamed(value));
  if (!parsed.success) return undefined;
  // Parts that failed come back as explicit undefined: leave them out of the session.
  const session = parsed.data;
  for (const key of Object.keys(session) as (keyof typeof session)[])
    if (session[key] === undefined) delete session[key];
  return session;
}
