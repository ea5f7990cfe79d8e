import http from 'node:http';
import https from 'node:https';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import type { ZodType } from 'zod';
import type { Logger } from '../log/logger';
import { redactText } from '../log/redact';
import { GraphApiError, ProviderUnavailableError, TokenEndpointError, type GraphErrorBody } from './errors';
import { ACCEPT_ENCODING, httpGet, type RawAnswer } from './httpGet';
import { graphErrorSchema, type GraphErrorJson } from './schemas';
import { DEFAULT_USAGE_POLICY, pageOfPath, UsageGovernor } from './usage';

export interface TransportOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Sockets per provider origin; bounded so a slow provider cannot exhaust us. */
  maxSockets?: number;
  logger?: Logger;
  /** Values that must never appear in a log line or error (the app secret). */
  secrets?: readonly string[];
  retry?: RetryPolicy;
  /** Reads the provider's usage headers and slows or holds back calls near the limit. */
  usage?: UsageGovernor;
  /** The clock (epoch ms), for the retry deadline and the usage readings. */
  now: () => number;
  /** The version the app asks for; an answer at another `facebook-api-version` is warned about once. */
  apiVersion?: string;
  /** Told about every answer, e.g. to read the provider's usage headers. */
  onResponse?: (info: { path: string; status: number; headers: Record<string, unknown>; ms: number }) => void;
}

export interface RetryPolicy {
  /** Further attempts after the first. */
  retries: number;
  baseMs: number;
  capMs: number;
  /** Overall budget of one logical call, attempts and waits included. */
  deadlineMs: number;
}

export interface GraphRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  /** Form-encoded body (POST). */
  form?: Record<string, string>;
  bearer?: string;
  /** Reads are retried on transient failures; the code exchange never is. */
  idempotent: boolean;
  /** The token endpoint's refusals are a different error from the API's. */
  tokenEndpoint?: boolean;
  /**
   * Whose rate-limit budget the call counts against: `page` for a page-token
   * call (the page's Business Use Case budget), `app` otherwise (docs/provider-interface.md#usage-headers).
   */
  budget?: 'app' | 'page';
}

/** Largest answer read from the provider (after decompression). */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/**
 * One pair of keep-alive agents per provider origin. Reads (GET) go out with node:http on those agents
 * (./httpGet: the hot path of a page view); the token exchanges and other writes through one axios instance on
 * the same agents. Neither throws on a status: every answer goes through the same checks below.
 */
export class GraphTransport {
  private readonly http: AxiosInstance;
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly usage: UsageGovernor;
  private versionWarned = false;

  constructor(private readonly options: TransportOptions) {
    this.usage = options.usage ?? new UsageGovernor(DEFAULT_USAGE_POLICY, options.now);
    const agentOptions = {
      keepAlive: true,
      maxSockets: options.maxSockets ?? 64,
      maxFreeSockets: 16,
      scheduling: 'lifo' as const,
    };
    this.agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
    this.http = axios.create({
      baseURL: options.baseUrl,
      timeout: options.timeoutMs,
      httpAgent: this.agents.http,
      httpsAgent: this.agents.https,
      validateStatus: () => true,
      maxRedirects: 0,
      maxContentLength: MAX_ANSWER_BYTES,
      responseType: 'text',
      // We parse ourselves: a non-JSON body is a provider failure, not a crash.
      transformResponse: (data: unknown) => data,
      headers: { Accept: 'application/json' },
    });
  }

  /** Sends the request and returns the validated body, or throws one of our typed errors. */
  async call<T>(req: GraphRequest, schema: ZodType<T>): Promise<T> {
    const policy = req.idempotent ? this.options.retry : undefined;
    const now = this.options.now;
    const started = now();
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(req, schema, policy ? started + policy.deadlineMs - now() : undefined);
      } catch (err) {
        const wait = policy && attempt < policy.retries && isTransient(err) ? backoff(policy, attempt) : undefined;
        if (wait === undefined || now() + wait - started >= policy!.deadlineMs) throw err;
        this.options.logger?.warn(
          { path: req.path, attempt: attempt + 1, waitMs: wait, err },
          'retrying provider call',
        );
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  private async once<T>(req: GraphRequest, schema: ZodType<T>, remainingMs: number | undefined): Promise<T> {
    const pageId = req.tokenEndpoint || req.budget !== 'page' ? undefined : pageOfPath(req.path);
    if (!req.tokenEndpoint) await this.throttle(req.path, pageId);
    const started = process.hrtime.bigint();
    const timeoutMs =
      remainingMs === undefined ? this.options.timeoutMs : Math.max(1, Math.min(this.options.timeoutMs, remainingMs));
    let res: RawAnswer;
    try {
      res = req.method === 'GET' && !req.form ? await this.get(req, timeoutMs) : await this.viaAxios(req, timeoutMs);
    } catch (err) {
      throw this.transportError(err, req.path);
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    this.usage.record(res.headers, req.tokenEndpoint ? undefined : pageOfPath(req.path));
    this.options.onResponse?.({
      path: req.path,
      status: res.status,
      headers: res.headers,
      ms,
    });
    const body = parseJson(res.data);
    // Only a body with an `error` key can be the provider's error: a feed of 25 posts is not run through its schema.
    const graphError = hasErrorKey(body) ? graphErrorSchema.safeParse(body) : undefined;
    const answered = headerString(res.headers['facebook-api-version'])?.slice(0, 20);
    const logger = this.options.logger;
    if (logger?.isLevelEnabled('debug'))
      logger.debug(
        {
          provider: {
            method: req.method,
            path: req.path,
            status: res.status,
            ms: Math.round(ms * 10) / 10,
            fbtrace_id: graphError?.success
              ? graphError.data.error.fbtrace_id
              : headerString(res.headers['x-fb-trace-id']),
            apiVersion: answered,
          },
        },
        'provider call',
      );
    this.checkVersion(answered);
    if (graphError?.success) throw this.graphError(req, graphError.data.error, res.status, pageId);
    if (res.status < 200 || res.status >= 300) {
      if (req.tokenEndpoint && res.status >= 400 && res.status < 500)
        throw new TokenEndpointError(undefined, res.status);
      throw new ProviderUnavailableError('http_error', `The provider answered HTTP ${res.status}.`);
    }
    if (body === undefined)
      throw new ProviderUnavailableError('bad_response', 'The provider answered with something that is not JSON.');
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      this.options.logger?.warn(
        { path: req.path, issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`) },
        'provider response has an unexpected shape',
      );
      throw new ProviderUnavailableError('bad_response', 'The provider answered with data of an unexpected shape.');
    }
    return parsed.data;
  }

  private get(req: GraphRequest, timeoutMs: number): Promise<RawAnswer> {
    const url = new URL(joinPath(this.options.baseUrl, req.path));
    if (req.query) for (const [name, value] of Object.entries(req.query)) url.searchParams.append(name, value);
    return httpGet(url, {
      agent: url.protocol === 'https:' ? this.agents.https : this.agents.http,
      headers: {
        Accept: 'application/json',
        'Accept-Encoding': ACCEPT_ENCODING,
        ...(req.bearer ? { Authorization: `Bearer ${req.bearer}` } : {}),
      },
      timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
    });
  }

  private async viaAxios(req: GraphRequest, timeoutMs: number): Promise<RawAnswer> {
    const res: AxiosResponse<string> = await this.http.request<string>({
      method: req.method,
      url: req.path,
      params: req.query,
      data: req.form ? new URLSearchParams(req.form).toString() : undefined,
      headers: {
        ...(req.form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        ...(req.bearer ? { Authorization: `Bearer ${req.bearer}` } : {}),
      },
      timeout: timeoutMs,
    });
    return { status: res.status, headers: res.headers, data: res.data };
  }

  /**
   * The provider says in `facebook-api-version` which version answered. A
   * different one than configured means calls are not running at the version
   * the app was written for (docs/provider-interface.md#versioning): said once, not per call.
   */
  private checkVersion(answered: string | undefined): void {
    const wanted = this.options.apiVersion;
    if (this.versionWarned || !wanted || !answered || answered === wanted) return;
    this.versionWarned = true;
    this.options.logger?.warn(
      { configured: wanted, answered },
      `the provider answered at API version ${answered}, not FB_API_VERSION=${wanted}`,
    );
  }

  /**
   * Near the provider's limit, waits a little before calling; when the
   * provider said access is closed for a while, does not call at all.
   */
  private async throttle(path: string, pageId: string | undefined): Promise<void> {
    const blocked = this.usage.blockedFor(pageId);
    if (blocked !== undefined) {
      this.options.logger?.warn({ path, retryAfterSec: blocked }, 'provider call held back by rate limit');
      throw new GraphApiError(
        {
          message: 'Held back: the provider asked us to wait before calling again.',
          type: 'OAuthException',
          code: pageId ? 32 : 4,
          subcode: undefined,
          fbtraceId: undefined,
          userTitle: undefined,
          userMessage: undefined,
        },
        429,
        blocked,
      );
    }
    const delay = this.usage.delayFor(pageId);
    if (delay > 0) {
      this.options.logger?.info({ path, delayMs: delay }, 'slowing down: provider usage is high');
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** A rate limit carries how long the usage headers say to wait, when they say. */
  private graphError(req: GraphRequest, raw: GraphErrorJson, status: number, pageId: string | undefined) {
    const body: GraphErrorBody = {
      message: redactText(raw.message, this.options.secrets),
      type: raw.type,
      code: raw.code,
      subcode: raw.error_subcode,
      fbtraceId: raw.fbtrace_id,
      userTitle:
        raw.error_user_title === undefined ? undefined : redactText(raw.error_user_title, this.options.secrets),
      userMessage: raw.error_user_msg === undefined ? undefined : redactText(raw.error_user_msg, this.options.secrets),
    };
    return req.tokenEndpoint
      ? new TokenEndpointError(body, status)
      : new GraphApiError(body, status, this.usage.blockedFor(pageId));
  }

  private transportError(err: unknown, path: string): ProviderUnavailableError {
    const code = (err as { code?: string }).code;
    if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') {
      return new ProviderUnavailableError(
        'timeout',
        `The provider did not answer within ${this.options.timeoutMs} ms (${path}).`,
      );
    }
    if (code === 'ERR_FR_MAX_BODY_LENGTH_EXCEEDED' || code === 'ERR_BAD_RESPONSE') {
      return new ProviderUnavailableError('bad_response', `The provider's answer could not be read (${path}).`);
    }
    return new ProviderUnavailableError(
      'unreachable',
      `The provider could not be reached (${code ?? 'network error'}, ${path}).`,
    );
  }

  /** Frees the keep-alive sockets (graceful shutdown, tests). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

/** The base URL and a call's path, as axios joins them: one slash between. */
function joinPath(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

function hasErrorKey(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'error' in body;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function headerString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isTransient(err: unknown): boolean {
  if (err instanceof ProviderUnavailableError) return err.reason !== 'bad_response';
  return err instanceof GraphApiError && err.retryable;
}

/** Capped exponential backoff with full jitter. */
function backoff(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** attempt);
  return Math.round(Math.random() * ceiling);
}
