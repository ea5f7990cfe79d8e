import type { ZodType } from 'zod';
import type { Config } from '../config';
import type { Logger } from '../log/logger';
import { InFlight, readKey } from './coalesce';
import { GraphApiError } from './errors';
import { listLocation, nextCursor, type ListLocation, type ListPaging } from './paging';
import { appSecretProof } from './proof';
import {
  ACCOUNT_FIELDS_PARAM,
  accountsSchema,
  businessesSchema,
  commentsSchema,
  commentSchema,
  feedSchema,
  postSchema,
  reactionCountSchema,
  batchSchema,
  REACTION_KINDS,
  type BatchAnswer,
  pageDetailsSchema,
  meSchema,
  pageTokenSchema,
  permissionsSchema,
  portfolioPagesSchema,
  subscribeSchema,
  tokenSchema,
  insightsSchema,
  COMMENT_FIELDS_PARAM,
  MODERATION_FIELDS_PARAM,
  createdSchema,
  writeSuccessSchema,
  photoPublishedSchema,
  publishedSchema,
  PUBLISHED_FIELDS_PARAM,
  type Published,
  FEED_FIELDS_PARAM,
  POST_STATE_FIELDS_PARAM,
  postStateSchema,
  SCHEDULED_FIELDS_PARAM,
  scheduledPostsSchema,
  type PostState,
  type ScheduledPosts,
  PAGE_FIELD_ITEMS,
  POST_FIELDS_PARAM,
  REQUIRED_PAGE_FIELDS,
  type Comment,
  type CommentsPage,
  type FeedResponse,
  type InsightsResponse,
  type PostDetails,
  type Me,
  type PageDetails,
  type PageList,
  type ListedPage,
  type PageSummary,
} from './schemas';
import { callTemplate, type ProviderCall } from './calls';
import { RemovedFields } from './removed-fields';
import { GraphTransport, type Budget, type GraphRequest, type RetryPolicy } from './transport';
import type { UsageReadings } from './usage';

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

/** Which comments: a post's top-level ones, newest first, or a comment's replies, oldest first; `after` a cursor. */
export interface CommentsQuery {
  after?: string | undefined;
  replies?: boolean;
  /** With what the Page may do with each (MODERATION_FIELDS_PARAM): the app asks for pages_manage_engagement. */
  moderation?: boolean;
}

/**
 * One action of the Page's on a comment, or a reply to a post or comment (docs/provider-interface.md#comment-actions):
 * `POST /{object-id}/comments` with `message`; `POST`/`DELETE /{comment-id}/likes`; `POST /{comment-id}` with
 * `is_hidden`; `DELETE /{comment-id}`.
 */
export type CommentWrite =
  | { kind: 'reply'; parentId: string; message: string }
  | { kind: 'like' | 'unlike' | 'hide' | 'unhide' | 'delete'; commentId: string };

/**
 * A post the Page publishes (docs/provider-interface.md#publishing): text, a link or a photo, now or at
 * `scheduledAt` (epoch ms, within the provider's window: src/pages/schedule-time.ts).
 */
export interface PostWrite {
  message: string;
  link?: string;
  photo?: { data: Buffer; type: string };
  scheduledAt?: number;
}

/**
 * One write of the Page's on one of its own posts (docs/provider-interface.md#post-management): `POST /{post-id}`
 * with `message` (edit), `is_published=true` (publish a scheduled post now) or `scheduled_publish_time` (Unix
 * seconds: reschedule); `DELETE /{post-id}` (delete a post, or cancel a scheduled one).
 */
export type PostChange =
  | { kind: 'edit'; postId: string; message: string }
  | { kind: 'publish'; postId: string }
  | { kind: 'reschedule'; postId: string; at: number }
  | { kind: 'delete'; postId: string };

/** Scheduled posts one read lists: more than a Page keeps waiting in practice; the page says when there are more. */
export const SCHEDULED_PAGE_SIZE = 100;

/** Comments per call of the post page. */
export const COMMENTS_PAGE_SIZE = 25;

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
export type AdmitRead = <T>(read: () => Promise<T>) => Promise<T>;

/** Calls to `/me/accounts` one picker view may make (100 pages each). */
export const ACCOUNTS_CALLS = 10;

/** Calls one picker view may make for the portfolios' Pages: `/me/businesses` and their `owned_pages` and `client_pages`. */
export const PORTFOLIO_CALLS = 10;

/**
 * Pages kept of one person's list, `/me/accounts` and portfolios together: more than the provider's 100 a call
 * over ACCOUNTS_CALLS lists, so only a provider answering far more a call meets it; it bounds the bytes a cached
 * list holds and the work of each picker view (docs/operations.md#security-notes). Beyond it the list is `cut`.
 */
export const MAX_LISTED_PAGES = 2000;

/** The Pages of the person's business portfolios, each marked with its portfolio's name; `cut` as for `listPages`. */
export interface PortfolioPages {
  pages: ListedPage[];
  cut: boolean;
}

/** Empty feed pages with `next` followed in one read before the empty page is shown as is. */
export const EMPTY_PAGE_HOPS = 3;

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, baseMs: 150, capMs: 1000, deadlineMs: 8000 };

/**
 * The provider's Graph API, one method per call of docs/provider-interface.md#calls-at-a-glance. Nothing here
 * leaks the HTTP client: each method returns validated data or throws a typed error
 * from ./errors. Tokens travel in the Authorization header (RFC 9700
 * §4.3.2); only where the provider ignores it, as the documented `access_token` parameter, which the
 * transport alone puts in the URL and nothing logs, caches or shows (docs/provider-interface.md#sending-credentials).
 */
export class GraphClient {
  private readonly transport: GraphTransport;
  /**
   * Every call carries `/{FB_API_VERSION}/`: an unversioned call runs at
   * whatever version the app's dashboard holds and changes behaviour when the
   * provider upgrades it (docs/provider-interface.md#versioning).
   */
  private readonly tokenPath: string;
  /**
   * Call paths (ids replaced by `{id}`) on which the provider ignored the
   * Authorization header (a 104): those send `access_token` as a parameter, others keep
   * the header (docs/provider-interface.md#sending-credentials).
   */
  private readonly paramPaths = new Set<string>();
  /** Concurrent identical reads (same path, parameters and token) share one upstream call. */
  readonly inflight = new InFlight();
  /** Fields the provider refused, left out of later reads (docs/provider-interface.md#removed-fields). */
  private readonly removed: RemovedFields;

  constructor(private readonly options: GraphClientOptions) {
    this.transport = new GraphTransport({
      baseUrl: options.graphUrl,
      timeoutMs: options.timeoutMs,
      maxSockets: options.maxSockets,
      logger: options.logger,
      secrets: [options.appSecret],
      retry: options.retry ?? DEFAULT_RETRY,
      now: options.now,
      apiVersion: options.apiVersion,
    });
    this.tokenPath = `/${options.apiVersion}/oauth/access_token`;
    this.removed = new RemovedFields(options.apiVersion, options.logger);
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

  /**
   * The pages the person manages (`/me/accounts`), following `paging.next`
   * (cursor `after`) for at most ACCOUNTS_CALLS calls; `cut` says the list
   * went on beyond that (docs/provider-interface.md#managed-pages).
   */
  async listPages(userToken: string, admit?: AdmitRead): Promise<PageList> {
    const pages: PageSummary[] = [];
    const kept = new Set<string>();
    let after: string | undefined;
    for (let call = 0; call < ACCOUNTS_CALLS; call++) {
      const body = await this.read(
        userToken,
        '/me/accounts',
        { fields: ACCOUNT_FIELDS_PARAM, limit: '100', ...(after ? { after } : {}) },
        accountsSchema,
        'app',
        admit,
      );
      // A Page listed twice keeps its first entry; by a set, so a long list costs time in proportion to its length.
      const fresh = body.data.filter((p) => firstTime(kept, p.id));
      const room = MAX_LISTED_PAGES - pages.length;
      pages.push(...fresh.slice(0, room));
      after = nextCursor(body.paging, this.listAt('/me/accounts'), this.options.logger);
      if (fresh.length > room || (after && pages.length >= MAX_LISTED_PAGES)) return { pages, cut: true };
      if (!after) return { pages, cut: false };
    }
    return { pages, cut: true };
  }

  /**
   * The Pages of the person's business portfolios (docs/provider-interface.md#portfolio-pages), which
   * `/me/accounts` leaves out: `/me/businesses`, then each portfolio's `owned_pages` and `client_pages`, at most
   * PORTFOLIO_CALLS calls in all. Needs `business_management`; without it the provider's permission error is
   * thrown as it came. A Page listed twice keeps its first portfolio.
   */
  async listPortfolioPages(userToken: string, admit?: AdmitRead): Promise<PortfolioPages> {
    const calls = { left: PORTFOLIO_CALLS };
    const businesses = await this.readEdge(userToken, '/me/businesses', 'id,name', businessesSchema, calls, admit);
    const pages: ListedPage[] = [];
    const kept = new Set<string>();
    let cut = businesses.cut;
    for (const business of businesses.items) {
      const edges = await Promise.all(
        (['owned_pages', 'client_pages'] as const).map((edge) =>
          this.readEdge(userToken, `/${business.id}/${edge}`, 'id,name,category', portfolioPagesSchema, calls, admit),
        ),
      );
      for (const edge of edges) {
        cut ||= edge.cut;
        for (const page of edge.items) {
          if (!firstTime(kept, page.id)) continue;
          if (pages.length >= MAX_LISTED_PAGES) return { pages, cut: true };
          pages.push({ ...page, portfolio: business.name });
        }
      }
    }
    return { pages, cut };
  }

  /** Who signed in (`/{version}/me?fields=id,name`): the app-scoped user id indexes their sessions. */
  async me(userToken: string): Promise<Me> {
    return this.read(userToken, '/me', { fields: 'id,name' }, meSchema, 'app');
  }

  /** Permissions the person granted and declined (`/me/permissions`). */
  async permissions(userToken: string): Promise<{ granted: string[]; declined: string[] }> {
    const body = await this.read(userToken, '/me/permissions', {}, permissionsSchema, 'app');
    const by = (status: string) => body.data.filter((p) => p.status === status).map((p) => p.permission);
    return { granted: by('granted'), declined: by('declined') };
  }

  /** The page token for one page (docs/provider-interface.md#page-token), or undefined when the person does not manage it. */
  async pageToken(userToken: string, pageId: string): Promise<string | undefined> {
    const body = await this.read(userToken, `/${pageId}`, { fields: 'access_token' }, pageTokenSchema, 'app');
    return body.id === pageId ? body.access_token : undefined;
  }

  /**
   * The Page's details. A field the provider removed is left out and the rest shown; `name` is required
   * (docs/provider-interface.md#removed-fields).
   */
  async pageDetails(pageToken: string, pageId: string, admit?: AdmitRead): Promise<PageDetails> {
    const shape = callTemplate(`/${this.options.apiVersion}/${pageId}`);
    // Each pass leaves out at least one more field the provider refused, so this ends within PAGE_FIELD_ITEMS passes.
    for (;;) {
      const asked = this.removed.without(shape, PAGE_FIELD_ITEMS);
      try {
        const body = await this.read(
          pageToken,
          `/${pageId}`,
          { fields: asked.join(',') },
          pageDetailsSchema,
          { page: pageId },
          admit,
        );
        return { ...body, id: pageId };
      } catch (err) {
        if (!(err instanceof GraphApiError) || !this.removed.learn(shape, asked, REQUIRED_PAGE_FIELDS, err)) throw err;
      }
    }
  }

  /**
   * One page of the feed. A page can come back empty and still have `next`, with or without cursors: going
   * older, that `next` is followed (at most EMPTY_PAGE_HOPS times, by its `after` cursor: nextCursor) so the
   * person does not land on an empty page; past the bound the empty page is returned with its `next`, and the
   * view still offers "Older posts". What is returned holds the checked cursor, never the provider's link.
   */
  async feed(pageToken: string, pageId: string, query: FeedQuery = {}, admit?: AdmitRead): Promise<FeedResponse> {
    const params = (after: string | undefined, before: string | undefined): Record<string, string> => ({
      fields: FEED_FIELDS_PARAM,
      limit: String(query.limit ?? 25),
      ...(after ? { after } : {}),
      ...(before ? { before } : {}),
    });
    const path = `/${pageId}/feed`;
    const read = async (after: string | undefined, before: string | undefined): Promise<FeedResponse> => {
      const { data, paging } = await this.read(
        pageToken,
        path,
        params(after, before),
        feedSchema,
        { page: pageId },
        admit,
      );
      const next = nextCursor(paging, this.listAt(path), this.options.logger);
      const cursors = { before: paging?.cursors?.before, after: next };
      if (!paging) return { data };
      return { data, paging: { cursors, next: next ? true : undefined, previous: paging.previous } };
    };
    let page = await read(query.after, query.before);
    for (let hop = 0; hop < EMPTY_PAGE_HOPS && !query.before && page.data.length === 0; hop++) {
      const after = page.paging?.cursors?.after;
      if (!after) break;
      page = await read(after, undefined);
    }
    return page;
  }

  /**
   * One post and the count of each reaction kind in one round trip: a synchronous batch of the post's read and
   * one `reactions` edge read per kind (docs/provider-interface.md#post-page; why a batch:
   * docs/performance.md#post-page). Each operation's answer is checked and mapped as its own call's would be:
   * the post's failure is the read's; a kind's leaves that kind unknown (null), never 0. `pageId`: the Page whose
   * token this is, whose budget every operation counts against.
   */
  async post(pageToken: string, pageId: string, postId: string, admit?: AdmitRead): Promise<PostDetails> {
    const reads = [
      { path: `/${postId}`, query: { fields: POST_FIELDS_PARAM } },
      ...REACTION_KINDS.map((kind) => ({
        path: `/${postId}/reactions`,
        query: { type: kind.toUpperCase(), summary: 'total_count', limit: '0' },
      })),
    ];
    const parts = await this.batch(pageToken, reads, pageId, admit);
    const part = (i: number): { req: GraphRequest; answer: BatchAnswer[number] } => {
      const path = `/${this.options.apiVersion}${reads[i]!.path}`;
      const req: GraphRequest = { method: 'GET', path, bearer: pageToken, idempotent: true, budget: { page: pageId } };
      return { req, answer: parts[i] ?? null };
    };
    const first = part(0);
    const post = this.transport.part(first.req, first.answer, postSchema);
    const reactionsByKind = Object.fromEntries(
      REACTION_KINDS.map((kind, i) => {
        const { req, answer } = part(i + 1);
        try {
          return [kind, this.transport.part(req, answer, reactionCountSchema).summary.total_count];
        } catch (err) {
          this.options.logger?.warn({ kind, err }, 'a reaction kind could not be read: shown as unknown');
          return [kind, null];
        }
      }),
    ) as PostDetails['reactionsByKind'];
    return { ...post, reactionsByKind };
  }

  /**
   * One page of comments (`/{post-id}/comments`, or a comment's replies at `/{comment-id}/comments`); needs
   * `pages_read_user_content` (docs/provider-interface.md#comments). Whether there are more is the provider's
   * `next`, checked by nextCursor as for every list: only its cursor is kept, never the link (it carries the token).
   */
  async comments(
    pageToken: string,
    pageId: string,
    parentId: string,
    query: CommentsQuery = {},
    admit?: AdmitRead,
  ): Promise<CommentsPage> {
    const params: Record<string, string> = {
      fields: query.moderation ? `${COMMENT_FIELDS_PARAM},${MODERATION_FIELDS_PARAM}` : COMMENT_FIELDS_PARAM,
      filter: 'toplevel',
      // A conversation reads oldest first; a post's comments newest first, as the Page's managers look for the new.
      order: query.replies ? 'chronological' : 'reverse_chronological',
      summary: 'total_count',
      limit: String(COMMENTS_PAGE_SIZE),
      ...(query.after ? { after: query.after } : {}),
    };
    const path = `/${parentId}/comments`;
    const { data, paging, summary } = await this.read(pageToken, path, params, commentsSchema, { page: pageId }, admit);
    const after = nextCursor(paging, this.listAt(path), this.options.logger);
    return { data, ...(after !== undefined ? { after } : {}), ...(summary !== undefined ? { summary } : {}) };
  }

  /**
   * Daily figures of the Page's `metrics` for the days ending after `range.since` up to `range.until` (Unix
   * seconds, at most 90 days apart: docs/provider-interface.md#insights), in one call. Needs `read_insights`
   * and a person who can perform the ANALYZE task on the Page.
   */
  async pageInsights(
    pageToken: string,
    pageId: string,
    metrics: readonly string[],
    range: { since: number; until: number },
    admit?: AdmitRead,
  ): Promise<InsightsResponse> {
    const query = { metric: metrics.join(','), period: 'day', since: String(range.since), until: String(range.until) };
    return this.read(pageToken, `/${pageId}/insights`, query, insightsSchema, { page: pageId }, admit);
  }

  /** A post's lifetime figure of `metric` (its viewers): `/{post-id}/insights` (docs/provider-interface.md#insights). */
  async postInsights(
    pageToken: string,
    pageId: string,
    postId: string,
    metric: string,
    admit?: AdmitRead,
  ): Promise<InsightsResponse> {
    const query = { metric, period: 'lifetime' };
    return this.read(pageToken, `/${postId}/insights`, query, insightsSchema, { page: pageId }, admit);
  }

  /**
   * Subscribes the app to the page's `feed` webhooks (docs/provider-interface.md#subscribed-apps), with the
   * page token; needs `pages_manage_metadata`. Idempotent at the provider, so a retry is harmless.
   */
  async subscribeApp(pageToken: string, pageId: string): Promise<void> {
    const proof = this.proof(pageToken);
    await this.transport.call(
      {
        method: 'POST',
        path: `/${this.options.apiVersion}/${pageId}/subscribed_apps`,
        form: { subscribed_fields: 'feed', ...proof },
        bearer: pageToken,
        idempotent: true,
        budget: { page: pageId },
      },
      subscribeSchema,
    );
  }

  /**
   * One write of the Page's on a comment (CommentWrite), with the page token, under the Page's budget. Never
   * retried: a write the provider may have made is not sent again blindly (docs/architecture.md#writes). A
   * reply answers the new comment's id.
   */
  async writeComment(pageToken: string, pageId: string, write: CommentWrite): Promise<{ id?: string }> {
    const v = this.options.apiVersion;
    const proof = this.proof(pageToken);
    const [method, path, form]: ['POST' | 'DELETE', string, Record<string, string>] =
      write.kind === 'reply'
        ? ['POST', `/${v}/${write.parentId}/comments`, { message: write.message, ...proof }]
        : write.kind === 'like' || write.kind === 'unlike'
          ? [write.kind === 'like' ? 'POST' : 'DELETE', `/${v}/${write.commentId}/likes`, proof]
          : write.kind === 'delete'
            ? ['DELETE', `/${v}/${write.commentId}`, proof]
            : ['POST', `/${v}/${write.commentId}`, { is_hidden: String(write.kind === 'hide'), ...proof }];
    // A 104 (the header ignored) is a refusal before any write: sending again with the token in the form is safe.
    const send = <T>(schema: ZodType<T>) =>
      this.withTokenFallback(path, 'form', (tokenIn) =>
        this.transport.call(
          { method, path, form, bearer: pageToken, tokenIn, idempotent: false, budget: { page: pageId } },
          schema,
        ),
      );
    if (write.kind === 'reply') return send(createdSchema);
    await send(writeSuccessSchema);
    return {};
  }

  /**
   * Publishes a post as the Page (the Pages API Posts guide: `POST /{page-id}/feed` with `message` and `link`;
   * the Page Photos reference: `POST /{page-id}/photos` with the picture as multipart `source`), now or scheduled
   * (`published=false`, `scheduled_publish_time` in Unix seconds). Never retried (docs/architecture.md#writes).
   * A feed post asks for PUBLISHED_FIELDS_PARAM on the write itself (read-after-write): whether it is in the
   * feed, and the time the provider took, with no read after it. A photo's answer names its post.
   */
  async publishPost(pageToken: string, pageId: string, post: PostWrite): Promise<Published> {
    const v = this.options.apiVersion;
    const when: Record<string, string> =
      post.scheduledAt === undefined
        ? {}
        : { published: 'false', scheduled_publish_time: String(Math.floor(post.scheduledAt / 1000)) };
    const form: Record<string, string> = {
      ...(post.message !== '' ? { message: post.message } : {}),
      ...(post.link !== undefined ? { link: post.link } : {}),
      ...when,
      ...this.proof(pageToken),
    };
    const send = <T>(path: string, extra: Record<string, string>, schema: ZodType<T>) =>
      this.withTokenFallback(path, 'form', (tokenIn) =>
        this.transport.call(
          {
            method: 'POST',
            path,
            form: { ...form, ...extra },
            ...(post.photo
              ? { file: { field: 'source', data: post.photo.data, type: post.photo.type, name: 'photo' } }
              : {}),
            bearer: pageToken,
            tokenIn,
            idempotent: false,
            budget: { page: pageId },
          },
          schema,
        ),
      );
    if (post.photo) {
      const { post_id: id } = await send(`/${v}/${pageId}/photos`, {}, photoPublishedSchema);
      return {
        id,
        is_published: post.scheduledAt === undefined,
        ...(post.scheduledAt === undefined ? {} : { scheduled_publish_time: Math.floor(post.scheduledAt / 1000) }),
      };
    }
    return send(`/${v}/${pageId}/feed`, { fields: PUBLISHED_FIELDS_PARAM }, publishedSchema);
  }

  /**
   * One comment as the Page sees it now (`GET /{comment-id}` with what the Page may do with it): how a write
   * that got no answer in time is checked by reading (docs/architecture.md#writes).
   */
  async comment(pageToken: string, pageId: string, commentId: string): Promise<Comment> {
    const fields = `${COMMENT_FIELDS_PARAM},${MODERATION_FIELDS_PARAM}`;
    return this.read(pageToken, `/${commentId}`, { fields }, commentSchema, { page: pageId });
  }

  /** The Page's scheduled posts, one page of SCHEDULED_PAGE_SIZE (docs/provider-interface.md#post-management). */
  async scheduledPosts(pageToken: string, pageId: string, admit?: AdmitRead): Promise<ScheduledPosts> {
    const query = { fields: SCHEDULED_FIELDS_PARAM, limit: String(SCHEDULED_PAGE_SIZE) };
    return this.read(pageToken, `/${pageId}/scheduled_posts`, query, scheduledPostsSchema, { page: pageId }, admit);
  }

  /**
   * One write on a post of the Page's (PostChange), with the page token, under the Page's budget; never retried,
   * as writeComment.
   */
  async writePost(pageToken: string, pageId: string, write: PostChange): Promise<void> {
    const v = this.options.apiVersion;
    const path = `/${v}/${write.postId}`;
    const proof = this.proof(pageToken);
    const form: Record<string, string> =
      write.kind === 'edit'
        ? { message: write.message, ...proof }
        : write.kind === 'publish'
          ? { is_published: 'true', ...proof }
          : write.kind === 'reschedule'
            ? { scheduled_publish_time: String(Math.floor(write.at / 1000)), ...proof }
            : proof;
    const method = write.kind === 'delete' ? 'DELETE' : 'POST';
    await this.withTokenFallback(path, 'form', (tokenIn) =>
      this.transport.call(
        { method, path, form, bearer: pageToken, tokenIn, idempotent: false, budget: { page: pageId } },
        writeSuccessSchema,
      ),
    );
  }

  /** A post as a post write left it (`GET /{post-id}`): how a write with no answer in time is checked by reading. */
  async postState(pageToken: string, pageId: string, postId: string): Promise<PostState> {
    return this.read(pageToken, `/${postId}`, { fields: POST_STATE_FIELDS_PARAM }, postStateSchema, { page: pageId });
  }

  /** Where a list read at `path` is, for nextCursor: this client's Graph origin and API version. */
  private listAt(path: string): ListLocation {
    return listLocation(this.options.graphUrl, `/${this.options.apiVersion}${path}`);
  }

  /**
   * One edge, following `paging.next` by its `after` cursor while `calls.left` lasts (shared between the edges
   * of one listing); `cut` when the edge went on past it.
   */
  private async readEdge<T>(
    token: string,
    path: string,
    fields: string,
    schema: ZodType<{
      data: T[];
      paging?: ListPaging | undefined;
    }>,
    calls: { left: number },
    admit?: AdmitRead,
  ): Promise<{ items: T[]; cut: boolean }> {
    const items: T[] = [];
    let after: string | undefined;
    do {
      if (calls.left <= 0) return { items, cut: true };
      calls.left--;
      const body = await this.read(
        token,
        path,
        { fields, limit: '100', ...(after ? { after } : {}) },
        schema,
        'app',
        admit,
      );
      items.push(...body.data);
      after = nextCursor(body.paging, this.listAt(path), this.options.logger);
    } while (after);
    return { items, cut: false };
  }

  private read<T>(
    token: string,
    path: string,
    query: Record<string, string>,
    schema: ZodType<T>,
    budget: Budget,
    admit?: AdmitRead,
  ): Promise<T> {
    const versioned = `/${this.options.apiVersion}${path}`;
    const once = () => this.readOnce(token, versioned, query, schema, budget);
    return this.inflight.run(readKey('GET', versioned, query, token), admit ? () => admit(once) : once);
  }

  private async readOnce<T>(
    token: string,
    path: string,
    query: Record<string, string>,
    schema: ZodType<T>,
    budget: Budget,
  ): Promise<T> {
    const params = { ...query, ...this.proof(token) };
    return this.withTokenFallback(path, 'query', (tokenIn) =>
      this.transport.call(
        { method: 'GET', path, query: params, bearer: token, tokenIn, idempotent: true, budget },
        schema,
      ),
    );
  }

  /**
   * Reads in one synchronous batch request (`POST /{version}/` with `batch`, docs/provider-interface.md#batch-requests):
   * the answer of each read, in order, still to be checked (`GraphTransport.part`). Coalesced and admitted like a read.
   */
  private batch(
    token: string,
    reads: readonly { path: string; query: Record<string, string> }[],
    pageId: string,
    admit?: AdmitRead,
  ): Promise<BatchAnswer> {
    const path = `/${this.options.apiVersion}/`;
    const batch = JSON.stringify(
      reads.map((r) => ({
        method: 'GET',
        relative_url: `${r.path.slice(1)}?${new URLSearchParams(r.query).toString()}`,
      })),
    );
    const form = { batch, include_headers: 'false', ...this.proof(token) };
    const once = () =>
      this.withTokenFallback(path, 'form', (tokenIn) =>
        this.transport.call(
          { method: 'POST', path, form, bearer: token, tokenIn, idempotent: true, budget: { page: pageId } },
          batchSchema,
        ),
      );
    return this.inflight.run(readKey('POST', path, { batch }, token), admit ? () => admit(once) : once);
  }

  /** `appsecret_proof` for `token` (docs/provider-interface.md#sending-credentials), with every call. */
  private proof(token: string): Record<string, string> {
    return this.options.appSecret ? { appsecret_proof: appSecretProof(token, this.options.appSecret) } : {};
  }

  /**
   * The token in the Authorization header; on a path where the provider ignored it (104 "An access token is
   * required"), from then on as `access_token` in `fallback` (the query of a real GET, the form of a POST), as
   * documented: never an HTTP method override, which a new app may not use (docs/provider-interface.md#sending-credentials).
   */
  private async withTokenFallback<T>(
    path: string,
    fallback: 'query' | 'form',
    send: (tokenIn: 'header' | 'query' | 'form') => Promise<T>,
  ): Promise<T> {
    const shape = callTemplate(path);
    if (this.paramPaths.has(shape)) return send(fallback);
    try {
      return await send('header');
    } catch (err) {
      if (!(err instanceof GraphApiError) || err.graph.code !== 104) throw err;
      this.paramPaths.add(shape);
      this.options.logger?.info(
        { path: shape },
        'provider ignored the Authorization header: token as a parameter on this path',
      );
      return send(fallback);
    }
  }

  private grant(token: string, expiresIn: number | undefined): UserTokenGrant {
    return { token, expiresAt: expiresIn ? this.options.now() + expiresIn * 1000 : null };
  }

  /** Tells `watcher` about every provider call attempt (src/observe: metrics and traces). */
  watch(watcher: (call: ProviderCall) => void): void {
    this.transport.watch(watcher);
  }

  /** The usage percentages the provider last reported. */
  usage(): UsageReadings {
    return this.transport.usageReadings();
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

/** Whether `id` is new to `seen`, which remembers it. */
function firstTime(seen: Set<string>, id: string): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  return true;
}
