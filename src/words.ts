/**
 * Words people read, in one place: the provider's name as people know it, the
 * permissions in plain words, and waits in minutes. Error pages, the picker and
 * the page view all take their wording from here, so no page says "provider",
 * "scope" or a permission's identifier (docs/architecture.md#error-model).
 */

/** The provider as people know it. The demo emulates it, so the demo says it too. */
export const PROVIDER_NAME = 'Facebook';

/** What each permission lets Pagelight do, as the person would say it. */
const PERMISSION_WORDS: Readonly<Record<string, string>> = {
  public_profile: 'See your name',
  email: 'See your email address',
  openid: 'Confirm who you are',
  pages_show_list: 'See the list of Pages you manage',
  pages_read_engagement: "Read your Page's posts and details",
  pages_read_user_content: 'Read what visitors post on your Page',
  pages_manage_metadata: 'Show new posts as they arrive',
  read_insights: "See your Page's insights",
  business_management: 'Reach Pages in your business portfolio',
};

/** A permission in words; one the table does not know is described, never named (its identifier is jargon). */
export function permissionWords(permission: string | undefined): string {
  if (permission !== undefined && Object.hasOwn(PERMISSION_WORDS, permission)) return PERMISSION_WORDS[permission]!;
  return `a permission ${PROVIDER_NAME} asked you about`;
}

/** 5 → "a few seconds", 30 → "about a minute", 300 → "about 5 minutes", 7200 → "about 2 hours". */
export function waitWords(seconds: number): string {
  if (seconds <= 20) return 'a few seconds';
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes === 1) return 'about a minute';
  if (minutes < 90) return `about ${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return `about ${hours} hours`;
}

/**
 * The person's role on a Page, from the tasks `/me/accounts` lists for them: the role whose tasks the list
 * holds, the widest first (each role's tasks include the narrower roles' ones). Undefined when no task is one
 * of these (docs/provider-interface.md#page-roles).
 */
const ROLE_BY_TASK: readonly (readonly [task: string, role: string])[] = [
  ['MANAGE', 'Admin'],
  ['CREATE_CONTENT', 'Editor'],
  ['MODERATE', 'Moderator'],
  ['ADVERTISE', 'Advertiser'],
  ['ANALYZE', 'Analyst'],
];

export function roleWords(tasks: readonly string[] | undefined): string | undefined {
  return ROLE_BY_TASK.find(([task]) => tasks?.includes(task))?.[1];
}
