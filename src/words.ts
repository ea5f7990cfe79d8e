import { isMessageKey } from './i18n/catalogs';
import type { Locale } from './i18n/locale';

/**
 * Words people read that depend on a value: a permission in plain words, a wait in minutes. Error pages, the
 * picker and the page view take them from here, in the page's language (src/i18n/catalogs), so no page says
 * "provider", "scope" or a permission's identifier.
 */

/** The provider as people know it (the catalogs write it in each language's own way). The demo emulates it, so the demo says it too. */
export const PROVIDER_NAME = 'Facebook';

/** A permission in words; one the catalogs do not know is described, never named (its identifier is jargon). */
export function permissionWords(locale: Locale, permission: string | undefined): string {
  const key = `permission.${permission ?? ''}`;
  return permission !== undefined && isMessageKey(key) ? locale.t(key) : locale.t('permission.unknown');
}

/** 5 → "a few seconds", 30 → "about a minute", 300 → "about 5 minutes", 7200 → "about 2 hours". */
export function waitWords(locale: Locale, seconds: number): string {
  if (seconds <= 20) return locale.t('wait.seconds');
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 90) return locale.t('wait.minutes', { minutes });
  return locale.t('wait.hours', { hours: Math.round(minutes / 60) });
}

/**
 * The person's role on a Page, from the tasks `/me/accounts` lists for them: the role whose tasks the list
 * holds, the widest first (each role's tasks include the narrower roles' ones). Undefined when no task is one
 * of these (docs/provider-interface.md#page-roles).
 */
const ROLE_BY_TASK = [
  ['MANAGE', 'role.admin'],
  ['CREATE_CONTENT', 'role.editor'],
  ['MODERATE', 'role.moderator'],
  ['ADVERTISE', 'role.advertiser'],
  ['ANALYZE', 'role.analyst'],
] as const;

export function roleWords(locale: Locale, tasks: readonly string[] | undefined): string | undefined {
  const key = ROLE_BY_TASK.find(([task]) => tasks?.includes(task))?.[1];
  return key === undefined ? undefined : locale.t(key);
}
