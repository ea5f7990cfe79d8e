import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, EnvHttpProxyAgent, FormData, request, type Dispatcher } from 'undici';
import type { ZodType } from 'zod';
import { parseJson } from '../json';
import type { Logger } from '../log/logger';
import { redactText } from '../log/redact';
import { GraphApiError, ProviderUnavailableError, TokenEndpointError, type GraphErrorBody } from './errors';
import { graphErrorSchema, type GraphErrorJson } from './schemas';
import { callKind, callTemplate, type CallOutcome, type ProviderCall } from './calls';
import { DEFAULT_USAGE_POLICY, UsageGovernor, type UsageReadings } from './usage';

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
  /** DELETE: a write that removes (a like, a comment), as the provider documents it. */
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  /** Form-encoded body (POST). */
  form?: Record<string, string>;
  /**
   * A file sent with the form as multipart/form-data (POST): the Page Photos reference takes the picture as the
   * multipart part `source`; the form's fields go in the same body.
   */
  file?: { field: string; data: Buffer; type: string; name: string };
  bearer?: string;
  /**
   * Where `bearer` goes: the `Authorization` header (the default); or, on a path where the provider ignored the
   * header (a 104), `access_token` in the query of a GET or the form of a POST, its documented places
   * (docs/provider-interface.md#sending-credentials). Only send() ever puts it there: nothing logs, caches or
   * shows more of a call than its path.
   */
  tokenIn?: 'header' | 'query' | 'form';
  /** Reads are retried on transient failures; the code exchange never is. */
  idempotent: boolean;
  /** The token endpoint's refusals are a different error from the API's. */
  tokenEndpoint?: boolean;
  /**
   * Whose rate-limit budget the call counts against: the Page whose token it carries (its Business Use Case
   * budget), named by the caller, never guessed from the path; `app` otherwise (docs/provider-interface.md#usage-headers).
   */
  budget?: Budget;
}

/** A call's budget: the app's (user tokens), or one Page's (that Page's token), whatever ids its path holds. */
export type Budget = 'app' | { page: string };

/** The header an emulator of the provider sends on every answer (lower case, as node gives headers). */
const EMULATOR_HEADER = 'x-graph-emulator';

/** Largest answer read from the provider (after decompression). */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/** What every call asks for: compressed answers are smaller on the wire, and the provider compresses when asked. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** An answer as the checks below read it: status, lower-cased headers, the body as text (decompressed). */
interface RawAnswer {
  status: number;
  headers: Record<string, unknown>;
  data: string;
}

/** Why send() ended an exchange itself: the whole-exchange deadline passed, or the answer was too large (declared, or read). */
type StopReason = 'deadline' | 'too_large';

/**
 * Every call, read or write, goes out through one undici agent (keep-alive connections, at most `maxSockets` per
 * provider origin) with undici's `request`; through the proxy that HTTPS_PROXY / HTTP_PROXY name, if any, unless
 * NO_PROXY exempts the provider's host, as axios did before it. It never throws on a status: every answer goes through the same
 * checks below, and every failure to get one through the same mapping (transportError).
 * undici rather than axios: docs/architecture.md#provider-transport.
 */
export class GraphTransport {
  private readonly dispatcher: Dispatcher;
  private readonly usage: UsageGovernor;
  private versionWarned = false;
  private emulatorNoticed = false;
  /** Told about every attempt once it ends, answered or not (metrics, traces: src/observe). */
  private readonly watchers: ((call: ProviderCall) => void)[] = [];

  constructor(private readonly options: TransportOptions) {
    this.usage = options.usage ?? new UsageGovernor(DEFAULT_USAGE_POLICY, options.now);
    this.dispatcher = agentFor(options.maxSockets ?? 64);
  }

  /** Sends the request and returns the validated body, or throws one of our typed errors. */
  async call<T>(req: GraphRequest, schema: ZodType<T>): Promise<T> {
    const policy = req.idempotent ? this.options.retry : undefined;
    const now = this.options.now;
    const started = now();
    for (let attempt = 0; ; attempt++) {
      const seen: Seen = { startedAt: Date.now(), started: process.hrtime.bigint(), status: undefined };
      try {
        const out = await this.once(req, schema, policy ? started + policy.deadlineMs - now() : undefined, seen);
        if (this.watchers.length > 0) this.tell(req, seen, undefined);
        return out;
      } catch (err) {
        if (this.watchers.length > 0) this.tell(req, seen, err);
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

  /** Adds a listener told about every provider call attempt (kind, path template, outcome, Graph code, time). */
  watch(watcher: (call: ProviderCall) => void): void {
    this.watchers.push(watcher);
  }

  /** The latest usage percentages the provider reported (docs/provider-interface.md#usage-headers). */
  usageReadings(): UsageReadings {
    return this.usage.report();
  }

  private tell(req: GraphRequest, seen: Seen, err: unknown): void {
    const { outcome, graphCode, fbtraceId } = outcomeOf(err, seen.status);
    const call: ProviderCall = {
      kind: callKind(req),
      method: req.method,
      path: callTemplate(req.path),
      status: seen.status,
      outcome,
      graphCode,
      fbtraceId: traceId(fbtraceId ?? seen.fbtraceId),
      startedAt: seen.startedAt,
      seconds: Number(process.hrtime.bigint() - seen.started) / 1e9,
    };
    for (const watcher of this.watchers) watcher(call);
  }

  private async once<T>(
    req: GraphRequest,
    schema: ZodType<T>,
    remainingMs: number | undefined,
    seen: Seen,
  ): Promise<T> {
    const pageId = req.tokenEndpoint || req.budget === undefined || req.budget === 'app' ? undefined : req.budget.page;
    if (!req.tokenEndpoint) await this.throttle(req.path, pageId);
    const started = process.hrtime.bigint();
    const timeoutMs =
      remainingMs === undefined ? this.options.timeoutMs : Math.max(1, Math.min(this.options.timeoutMs, remainingMs));
    const res = await this.send(req, timeoutMs);
    seen.status = res.status;
    seen.fbtraceId = headerString(res.headers['x-fb-trace-id']);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    this.usage.record(res.headers, pageId);
    const body = typeof res.data === 'string' && res.data.length > 0 ? parseJson(res.data) : undefined;
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
    this.noticeEmulator(headerString(res.headers[EMULATOR_HEADER]));
    return this.checked(req, res.status, body, graphError, pageId, schema);
  }

  /**
   * One operation of a batch answer (`{code, body}` with `body` a JSON string, or null when the provider did not
   * complete it), checked and mapped exactly as a call's own answer: its error becomes the same typed error
   * (docs/provider-interface.md#batch-requests).
   */
  part<T>(req: GraphRequest, part: { code: number; body: string } | null, schema: ZodType<T>): T {
    if (part === null) throw new ProviderUnavailableError('timeout', `The provider did not complete ${req.path}.`);
    const body = part.body.length > 0 ? parseJson(part.body) : undefined;
    const graphError = hasErrorKey(body) ? graphErrorSchema.safeParse(body) : undefined;
    const pageId = req.budget === undefined || req.budget === 'app' ? undefined : req.budget.page;
    return this.checked(req, part.code, body, graphError, pageId, schema);
  }

  /** The checks every answer goes through: the provider's error, the status, JSON, the expected shape. */
  private checked<T>(
    req: GraphRequest,
    status: number,
    body: unknown,
    graphError: ReturnType<typeof graphErrorSchema.safeParse> | undefined,
    pageId: string | undefined,
    schema: ZodType<T>,
  ): T {
    if (graphError?.success) throw this.graphError(req, graphError.data.error, status, pageId);
    if (status < 200 || status >= 300) {
      if (req.tokenEndpoint && status >= 400 && status < 500) throw new TokenEndpointError(undefined, status);
      throw new ProviderUnavailableError('http_error', `The provider answered HTTP ${status}.`);
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

  /**
   * One exchange, bounded as a whole by a deadline of our own, first byte sent to last byte read (undici's own
   * timeouts are idle timers, which a provider dripping its answer would keep restarting). An answer that says it
   * is larger than the cap is dropped before its body is read, and one that grows past it (decompressed) is
   * dropped there.
   */
  private async send(req: GraphRequest, timeoutMs: number): Promise<RawAnswer> {
    const stop = new AbortController();
    let stoppedBy: StopReason | undefined;
    const halt = (reason: StopReason) => {
      stoppedBy ??= reason;
      stop.abort();
    };
    const timer = setTimeout(() => halt('deadline'), timeoutMs);
    try {
      const where = req.bearer === undefined ? undefined : (req.tokenIn ?? 'header');
      const token: Record<string, string> = req.bearer === undefined ? {} : { access_token: req.bearer };
      const query = where === 'query' ? { ...req.query, ...token } : req.query;
      const form = where === 'form' ? { ...req.form, ...token } : req.form;
      const path = query ? `${req.path}?${new URLSearchParams(query).toString()}` : req.path;
      const res = await request(`${this.options.baseUrl}${path}`, {
        method: req.method,
        dispatcher: this.dispatcher,
        signal: stop.signal,
        body: req.file ? multipart(form ?? {}, req.file) : form ? new URLSearchParams(form).toString() : undefined,
        headers: {
          accept: 'application/json',
          'accept-encoding': ACCEPT_ENCODING,
          ...(form && !req.file ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...(where === 'header' ? { authorization: `Bearer ${req.bearer}` } : {}),
        },
      });
      if (Number(res.headers['content-length']) > MAX_ANSWER_BYTES) {
        halt('too_large');
        discard(res.body);
        throw new Error('the answer says it is larger than the transport reads');
      }
      const data = await readText(res.body, res.headers['content-encoding'], () => halt('too_large'));
      return { status: res.statusCode, headers: res.headers, data };
    } catch (err) {
      throw this.transportError(err, req.path, stoppedBy);
    } finally {
      clearTimeout(timer);
    }
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
   * An emulator marks every answer with `X-Graph-Emulator`, which the provider never sends
   * (packages/graph-emulator/README.md#production-guard): said once, so an operator who meant the provider
   * sees it at start (docs/provider-interface.md#emulator).
   */
  private noticeEmulator(product: string | undefined): void {
    if (this.emulatorNoticed || product === undefined) return;
    this.emulatorNoticed = true;
    this.options.logger?.info({ emulator: product.slice(0, 60) }, 'talking to an emulator, not the provider');
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
          // The codes the provider would answer on that budget: 80001 for a page token, 4 for the app's.
          code: pageId ? 80001 : 4,
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
    // The call's own token too: a provider that echoes its parameters must not put it in a log line or a page.
    const secrets = [...(this.options.secrets ?? []), ...(req.bearer !== undefined ? [req.bearer] : [])];
    const body: GraphErrorBody = {
      message: redactText(raw.message, secrets),
      type: raw.type,
      code: raw.code,
      subcode: raw.error_subcode,
      fbtraceId: raw.fbtrace_id,
      userTitle: raw.error_user_title === undefined ? undefined : redactText(raw.error_user_title, secrets),
      userMessage: raw.error_user_msg === undefined ? undefined : redactText(raw.error_user_msg, secrets),
    };
    return req.tokenEndpoint
      ? new TokenEndpointError(body, status)
      : new GraphApiError(body, status, this.usage.blockedFor(pageId));
  }

  /** A failure to get an answer, by its cause; `stoppedBy` when our own deadline or size check ended it. */
  private transportError(err: unknown, path: string, stoppedBy: StopReason | undefined): ProviderUnavailableError {
    const code = (err as { code?: string }).code;
    if (
      stoppedBy === 'deadline' ||
      code === 'ETIMEDOUT' ||
      (code?.startsWith('UND_ERR_') === true && code.endsWith('_TIMEOUT'))
    ) {
      return new ProviderUnavailableError(
        'timeout',
        `The provider did not answer within ${this.options.timeoutMs} ms (${path}).`,
      );
    }
    // A body that is not what its content-encoding says (zlib's Z_… codes), or an encoding we did not ask for.
    if (stoppedBy === 'too_large' || code === BAD_ENCODING || code?.startsWith('Z_') === true) {
      return new ProviderUnavailableError('bad_response', `The provider's answer could not be read (${path}).`);
    }
    return new ProviderUnavailableError(
      'unreachable',
      `The provider could not be reached (${code ?? 'network error'}, ${path}).`,
    );
  }

  /** Frees the keep-alive connections (graceful shutdown, tests). */
  close(): void {
    void this.dispatcher.destroy();
  }
}

/** When an attempt started (wall clock for a span, monotonic for its length) and the status it got, if any. */
interface Seen {
  startedAt: number;
  started: bigint;
  status: number | undefined;
  fbtraceId?: string | undefined;
}

/** The provider's trace id, only when it looks like one (it ends up in span attributes). */
function traceId(value: string | undefined): string | undefined {
  return value !== undefined && /^[\w-]{1,64}$/.test(value) ? value : undefined;
}

/** An attempt's outcome in a few bounded words, with the Graph error code and trace id when the provider sent them. */
function outcomeOf(
  err: unknown,
  status: number | undefined,
): { outcome: CallOutcome; graphCode?: number; fbtraceId?: string } {
  if (err === undefined) return { outcome: 'ok' };
  if (err instanceof GraphApiError)
    return {
      outcome: status === undefined ? 'held_back' : 'graph_error',
      graphCode: err.graph.code,
      fbtraceId: err.fbtraceId,
    };
  if (err instanceof TokenEndpointError)
    return { outcome: 'refused', graphCode: err.graph?.code, fbtraceId: err.fbtraceId };
  if (err instanceof ProviderUnavailableError) return { outcome: err.reason };
  return { outcome: 'failed' };
}

function hasErrorKey(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'error' in body;
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

/** A form and one file as multipart/form-data: undici's FormData, which it sends with its boundary. */
function multipart(form: Record<string, string>, file: NonNullable<GraphRequest['file']>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(form)) body.append(name, value);
  body.append(file.field, new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  return body;
}

/**
 * undici's proxy-aware agent when the environment names a proxy, else its plain one. EnvHttpProxyAgent reads
 * HTTP(S)_PROXY once, when it is made, and without one sends every call direct, as the plain agent does; but it
 * still parses the origin and reads NO_PROXY on every call, which cost 25–40 µs a call here
 * (docs/performance.md#the-cold-page-view-a-second-pass-2026-11-27-23300030-utc).
 */
function agentFor(connections: number): Dispatcher {
  const env = process.env;
  // As EnvHttpProxyAgent reads them: the lower-case name first, and an empty value is no proxy.
  const proxied = Boolean(env.http_proxy ?? env.HTTP_PROXY) || Boolean(env.https_proxy ?? env.HTTPS_PROXY);
  return proxied ? new EnvHttpProxyAgent({ connections }) : new Agent({ connections });
}

/** The code of an answer in a content-encoding the transport did not ask for: read as bad_response. */
const BAD_ENCODING = 'PAGELIGHT_BAD_ENCODING';

/**
 * The body as text, decompressed as its `content-encoding` says (only what ACCEPT_ENCODING asks for), read up to
 * MAX_ANSWER_BYTES: past it, `tooLarge` ends the exchange. Node's zlib does the decompressing: undici's own
 * decompress interceptor is marked experimental.
 */
function readText(body: Readable, encoding: unknown, tooLarge: () => void): Promise<string> {
  const decoder = decoderFor(typeof encoding === 'string' ? encoding.trim().toLowerCase() : '');
  if (decoder === null) {
    discard(body);
    return Promise.reject(
      Object.assign(new Error('the answer came in an encoding that was not asked for'), { code: BAD_ENCODING }),
    );
  }
  // An error of the body (the exchange aborted, the connection cut) ends the decoder with it, so the read below sees it.
  const text = decoder ? pipeline(body, decoder, () => {}) : body;
  // Read by its events rather than `for await`, whose iterator made promises for every chunk (docs/performance.md).
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    text.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_ANSWER_BYTES) return void chunks.push(chunk);
      tooLarge();
      discard(text);
      reject(new Error('the answer is larger than the transport reads'));
    });
    text.once('end', () => resolve(Buffer.concat(chunks, size).toString('utf8')));
    text.once('error', reject);
    // Closed without its end or an error: cut short (after 'end', the promise is already kept).
    text.once('close', () =>
      reject(Object.assign(new Error('the answer was cut short'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })),
    );
  });
}

/** A decompressor for `encoding`, undefined for none, null for one the transport did not ask for. */
function decoderFor(encoding: string) {
  if (encoding === '' || encoding === 'identity') return undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') return createGunzip();
  if (encoding === 'deflate') return createInflate();
  if (encoding === 'br') return createBrotliDecompress();
  return null;
}

/** Stops reading a stream no one reads further: the error its end emits (undici's "aborted") has nowhere to go. */
function discard(stream: Readable): void {
  stream.on('error', () => {});
  stream.destroy();
}
