/**
 * What the app assumes about the real provider when no variable says otherwise
 * (docs/provider-interface.md). The one place each is kept: config, docs and tests read them from here.
 */

/** The newest version the provider's changelog lists as available (docs/provider-interface.md#versioning). */
export const DEFAULT_API_VERSION = 'v27.0';

/** Where the login dialog lives (FB_AUTH_URL); its origin is also the id_token's issuer. */
export const DEFAULT_AUTH_URL = 'https://www.facebook.com';

/**
 * The provider's web origin, where a Page's `link` and a post's `permalink_url` point: the dialog's. Such links
 * are shown on the configured FB_AUTH_URL's origin instead — the same in production, the emulator's www host in
 * demo mode (docs/provider-interface.md#web-links).
 */
export const PROVIDER_WEB_ORIGIN = new URL(DEFAULT_AUTH_URL).origin;

/** The person's *Apps and Websites* settings on the provider's web origin (the privacy page links to it). */
export const APP_SETTINGS_PATH = '/settings?tab=applications';

/** Where the Graph API answers (FB_GRAPH_URL). */
export const DEFAULT_GRAPH_URL = 'https://graph.facebook.com';

/**
 * `pages_show_list` for /me/accounts, `pages_read_engagement` for the page token, the Page's fields
 * and its own posts. `pages_read_user_content` (visitor posts, comments) is not needed by what the app shows
 * (docs/provider-interface.md#permissions).
 */
export const DEFAULT_SCOPES = 'pages_show_list pages_read_engagement';

/** The opt-in permission that lets the post page read comments (docs/provider-interface.md#comments). */
export const COMMENTS_SCOPE = 'pages_read_user_content';

/**
 * The opt-in permission the post page's actions need: replying as the Page, liking, hiding and deleting comments
 * (docs/provider-interface.md#comment-actions). Needs App Review before anyone outside the app's roles can grant it.
 */
export const ENGAGEMENT_SCOPE = 'pages_manage_engagement';

/**
 * The opt-in permission publishing needs: posting as the Page, scheduling, editing and deleting its posts (the
 * Pages API Posts guide). Needs App Review, like ENGAGEMENT_SCOPE.
 */
export const PUBLISH_SCOPE = 'pages_manage_posts';

/** The tasks on a Page that allow publishing, editing and deleting its posts (Pages API Getting Started: tasks). */
export const PUBLISH_TASKS: readonly string[] = ['CREATE_CONTENT', 'MANAGE'];

/** The optional permission that lets the app subscribe a page to webhooks. */
export const SUBSCRIBE_SCOPE = 'pages_manage_metadata';

/**
 * The optional permission that lists the Pages of the person's business portfolios: since v17 `/me/accounts`
 * leaves out Pages reached through a portfolio, which `/me/businesses` and each portfolio's `owned_pages` and
 * `client_pages` then give (docs/provider-interface.md#portfolio-pages). Needs App Review for other people.
 */
export const BUSINESS_SCOPE = 'business_management';

/** The OpenID Connect scope: the provider honours PKCE only in its OIDC flow (docs/provider-interface.md#pkce). */
export const OPENID_SCOPE = 'openid';

/** Where the provider documents its JWKS, on the dialog's origin. */
export const JWKS_PATH = '/.well-known/oauth/openid/jwks/';

/**
 * The provider's image hosts, the only ones the CSP lets a page load pictures from: photos and covers come from its CDN,
 * `scontent…fbcdn.net` with a host per region, and profile pictures from `platform-lookaside.fbsbx.com`.
 */
export const DEFAULT_IMAGE_ORIGINS = 'https://*.fbcdn.net https://platform-lookaside.fbsbx.com';

/** The optional permission that lets the app read a Page's insights (docs/provider-interface.md#insights). */
export const INSIGHTS_SCOPE = 'read_insights';

/**
 * The Page metrics the insights view asks for, by day: exactly these, none the provider retired
 * (`page_impressions*`, `page_fans*`, the `*_unique` reach metrics of v26.0; docs/provider-interface.md#insights).
 */
export const PAGE_INSIGHT_METRICS = [
  'page_media_view',
  'page_total_media_view_unique',
  'page_post_engagements',
  'page_follows',
  'page_daily_follows_unique',
] as const;
export type PageInsightMetric = (typeof PAGE_INSIGHT_METRICS)[number];

/** A post's viewers, lifetime: the v26.0 changelog's alternative to the retired `post_impressions_unique`. */
export const POST_VIEWERS_METRIC = 'post_total_media_view_unique';

/** The task a person needs on a Page to read its insights (the insights reference's requirements). */
export const ANALYZE_TASK = 'ANALYZE';

/**
 * The provider's video hosts (the CSP's `media-src`): a video's `source` is a file on its
 * CDN, `video…fbcdn.net` with a host per region, the same wildcard as its photos.
 */
export const DEFAULT_MEDIA_ORIGINS = 'https://*.fbcdn.net';
