import type { ZodType } from 'zod';
import type { Config } from '../config';
import type { Logger } from '../log/logger';
import { InFlight, readKey } from './coalesce';
import { GraphApiError } from './errors';
import { appSecretProof } from './proof';
import {
  accountsSchema,
  feedSchema,
  pageDetailsSchema,
  pageTokenSchema,
  permissionsSchema,
  tokenSchema,
  PAGE_FIELDS,
  type FeedResponse,
  type PageDetails,
  type PageSummary,
} from './schemas';
import { GraphTransport, type RetryPolicy, type TransportOptions } from './transport';

export interface GraphClientOptions {
  graphUrl: string;
  apiVersion: string;
  appId: string;
  appSecret: string;
  redirectUri: string;
  timeoutMs: number;
  logger?: Logger;
  retry?: RetryPolicy;
  maxSockets?: number;
  onResponse?: TransportOptions['onResponse'];
  /** The clock (epoch ms): token expiry, retry deadlines, usage readings. */
  now: () => number;
}

/** A user token and when it stops working (epoch ms), as the provider reported it. */
export interface UserTokenGrant {
  token: string;
  expiresAt: number | null;
}

/** What the code exchange gives: the user token, and the id_token of an OIDC login, still unverified. */
export interface CodeGrant extends UserTokenGrant {
  idToken: string | undefined;
}

export interface FeedQuery {
  after?: string | undefined;
  before?: string | undefined;
  limit?: number;
}

declare const verifiedByStateCheck: unique symbol;

/**
 * An authorization code whose `state` matched a login this session started
 * (RFC 6749 §10.12), with that login's PKCE verifier (RFC 7636 §4.5) and
 * OIDC nonce when it had them. Only the state check in src/auth/pending.ts
 * makes one, and the code exchange takes nothing else: a code that skipped
 * the check does not compile.
 */
export type VerifiedCallback = {
  readonly code: string;
  readonly verifier?: string;
  readonly nonce?: string;
} & {
  readonly [verifiedByStateCheck]: true;
};

/**
 * Admits one upstream read (e.g. within a session's share of concurrent
 * reads). Applied only to the read that goes upstream: a caller that joins an
 * identical read already under way does not pass it again.
 */
export type ReadGate = <T>(read: () => Promise<T>) => Promise<T>;

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseMs: 150, capMs: 1000, deadlineMs: 8000 };

/**
 * The provider's Graph API, one method per call of docs/provider-interface.md#calls-at-a-glance. Nothing here
 * leaks axios: each method returns validated data or throws a typed error
 * from ./errors. Tokens travel in the Authorization header (RFC 9700
 * §4.3.2), never in a URL.
 */
export class GraphClient {
  private readonly transport: GraphTransport;
  /**
   * Page endpoints and /me/accounts go without a version segment, as in the
   * reference flow (docs/provider-interface.md#calls-at-a-glance): every provider that implements it serves them
   * so. The dialog and token endpoint are versioned.
   */
  private readonly tokenPath: string;
  /** Some stand-ins read tokens only from a form body: switched on the first 104. */
  private credentialsInForm = false;
  /** Concurrent identical reads (same path, parameters and token) share one upstream call. */
  readonly inflight = new InFlight();

  constructor(private readonly options: GraphClientOptions) {
    this.transport = new GraphTransport({
      baseUrl: options.graphUrl,
      timeoutMs: options.timeoutMs,
      maxSockets: options.maxSockets,
      logger: options.logger,
      secrets: [options.appSecret],
      retry: options.retry ?? DEFAULT_RETRY,
      onResponse: options.onResponse,
      now: options.now,
    });
    this.tokenPath = `/${options.apiVersion}/oauth/access_token`;
  }

  /**
   * Authorization code → user token, as a form POST so `code` and
   * `client_secret` stay out of URLs (RFC 6749 §4.1.3), with the PKCE verifier
   * (RFC 7636 §4.5) only when the dialog had a challenge: the provider refuses a verifier
   * whose code came without one (docs/provider-interface.md#pkce). Never retried: a code is single-use.
   */
  async exchangeCode(callback: VerifiedCallback): Promise<CodeGrant> {
    const body = await this.transport.call(
      {
        method: 'POST',
        path: this.tokenPath,
        form: {
          client_id: this.options.appId,
          client_secret: this.options.appSecret,
          redirect_uri: this.options.redirectUri,
          code: callback.code,
          ...(callback.verifier !== undefined ? { code_verifier: callback.verifier } : {}),
        },
        idempotent: false,
        tokenEndpoint: true,
      },
      tokenSchema,
    );
    return { ...this.grant(body.access_token, body.expires_in), idToken: body.id_token };
  }

  /** Short-lived user token → long-lived one (about 60 days); page tokens from it do not expire. */
  async exchangeForLongLived(userToken: string): Promise<UserTokenGrant> {
    const body = await this.transport.call(
      {
        method: 'POST',
        path: this.tokenPath,
        form: {
          grant_type: 'fb_exchange_token',
          client_id: this.options.appId,
          client_secret: this.options.appSecret,
          fb_exchange_token: userToken,
        },
        idempotent: false,
        tokenEndpoint: true,
      },
      tokenSchema,
    );
    return this.grant(body.access_token, body.expires_in);
  }

  /** The pages the person manages (`/me/accounts`); their page tokens are dropped here. */
  async listPages(userToken: string, gate?: ReadGate): Promise<PageSummary[]> {
    const body = await this.read(
      userToken,
      '/me/accounts',
      { fields: 'id,name,category,tasks', limit: '100' },
      accountsSchema,
      gate,
    );
    return body.data;
  }

  /** Permissions the person granted and declined (`/me/permissions`). */
  async permissions(userToken: string): Promise<{ granted: string[]; declined: string[] }> {
    const body = await this.read(userToken, '/me/permissions', {}, permissionsSchema);
    const by = (status: string) => body.data.filter((p) => p.status === status).map((p) => p.permission);
    return { granted: by('granted'), declined: by('declined') };
  }

  /** The page token for one page (docs/provider-interface.md#page-token), or undefined when the person does not manage it. */
  async pageToken(userToken: string, pageId: string): Promise<string | undefined> {
    const body = await this.read(userToken, `/${pageId}`, { fields: 'access_token' }, pageTokenSchema);
    return body.id === pageId ? body.access_token : undefined;
  }

  async pageDetails(pageToken: string, pageId: string, gate?: ReadGate): Promise<PageDetails> {
    const body = await this.read(pageToken, `/${pageId}`, { fields: PAGE_FIELDS.join(',') }, pageDetailsSchema, gate);
    return { ...body, id: pageId };
  }

  async feed(pageToken: string, pageId: string, query: FeedQuery = {}, gate?: ReadGate): Promise<FeedResponse> {
    const params: Record<string, string> = {
      fields: 'id,created_time,message,story',
      limit: String(query.limit ?? 25),
    };
    if (query.after) params.after = query.after;
    if (query.before) params.before = query.before;
    return this.read(pageToken, `/${pageId}/feed`, params, feedSchema, gate);
  }

  private read<T>(
    token: string,
    path: string,
    query: Record<string, string>,
    schema: ZodType<T>,
    gate?: ReadGate,
  ): Promise<T> {
    const once = () => this.readOnce(token, path, query, schema);
    return this.inflight.run(readKey('GET', path, query, token), gate ? () => gate(once) : once);
  }

  private async readOnce<T>(
    token: string,
    path: string,
    query: Record<string, string>,
    schema: ZodType<T>,
  ): Promise<T> {
    const proof: Record<string, string> = this.options.appSecret
      ? { appsecret_proof: appSecretProof(token, this.options.appSecret) }
      : {};
    if (this.credentialsInForm) {
      return this.transport.call(
        { method: 'POST', path, form: { method: 'get', ...query, ...proof, access_token: token }, idempotent: true },
        schema,
      );
    }
    try {
      return await this.transport.call(
        { method: 'GET', path, query: { ...query, ...proof }, bearer: token, idempotent: true },
        schema,
      );
    } catch (err) {
      // 104 "An access token is required": this provider ignores the header; use the form style (docs/provider-interface.md#sending-credentials).
      if (!(err instanceof GraphApiError) || err.graph.code !== 104) throw err;
      this.credentialsInForm = true;
      this.options.logger?.info('provider ignores Authorization headers; sending tokens in form bodies from now on');
      return this.readOnce(token, path, query, schema);
    }
  }

  private grant(token: string, expiresIn: number | undefined): UserTokenGrant {
    return { token, expiresAt: expiresIn ? this.options.now() + expiresIn * 1000 : null };
  }

  close(): void {
    this.transport.close();
  }
}

/** The client for the provider a config points at: its API origin, version, app and callback. The clock is the system's unless overridden. */
export function graphClientFor(
  config: Pick<Config, 'graphUrl' | 'apiVersion' | 'appId' | 'appSecret' | 'callbackUrl' | 'providerTimeoutMs'>,
  logger: Logger,
  overrides: Partial<GraphClientOptions> = {},
): GraphClient {
  return new GraphClient({
    graphUrl: config.graphUrl,
    apiVersion: config.apiVersion,
    appId: config.appId,
    appSecret: config.appSecret,
    redirectUri: config.callbackUrl,
    timeoutMs: config.providerTimeoutMs,
    logger,
    now: Date.now,
    ...overrides,
  });
}
