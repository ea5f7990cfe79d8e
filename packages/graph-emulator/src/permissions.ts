/**
 * Permissions the emulated dialog accepts, with the wording shown to the
 * person. Names follow the provider's permission reference
 * (https://developers.facebook.com/docs/permissions); any other name in
 * `scope` is refused with an error page, as the real dialog does for
 * "Invalid Scopes".
 */
export const PERMISSIONS: Readonly<Record<string, string>> = Object.freeze({
  public_profile: 'Your name and profile picture',
  openid: 'Confirm who you are to the app (OpenID Connect)',
  email: 'Your email address',
  user_link: 'A link to your profile',
  pages_show_list: 'Show a list of the Pages you manage',
  pages_read_engagement: 'Read content posted on your Pages and their details',
  pages_read_user_content: 'Read user-generated content on your Pages',
  pages_manage_metadata: 'Manage accounts, settings and webhooks for your Pages',
  pages_manage_posts: 'Create and manage posts on your Pages',
  pages_manage_engagement: 'Manage comments on your Pages',
  read_insights: 'Read insights of your Pages',
  business_management: 'Manage your business',
});

export function isKnownPermission(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(PERMISSIONS, name);
}

/** Every permission: what the test-only token shortcut grants by default. */
export const ALL_PERMISSIONS: readonly string[] = Object.freeze(Object.keys(PERMISSIONS));

/** Granted implicitly with every login (real provider behaviour). */
export const IMPLICIT_PERMISSION = 'public_profile';

/** The OpenID Connect scope: not a permission the person can decline, so granted whenever asked for. */
export const OPENID_SCOPE = 'openid';

/**
 * `scope` is comma-separated in the provider's docs and space-separated in
 * RFC 6749 §3.3; the real dialog takes both, so split on either.
 */
export function splitScope(scope: string): string[] {
  const names = scope.split(/[\s,]+/).filter((s) => s.length > 0);
  return [...new Set(names)];
}

/** Page tasks a manager with full control has (shape of /me/accounts `tasks`). */
export const ALL_TASKS: readonly string[] = Object.freeze([
  'ADVERTISE',
  'ANALYZE',
  'CREATE_CONTENT',
  'MESSAGING',
  'MODERATE',
  'MANAGE',
]);

/** The seeded Login for Business configuration: reading a person's Pages, what a Pages app asks for first. */
export const DEFAULT_CONFIGURATIONS: readonly { id: string; name: string; permissions: string[] }[] = Object.freeze([
  { id: '900000000000001', name: 'Demo App: read Pages', permissions: ['pages_show_list', 'pages_read_engagement'] },
]);
