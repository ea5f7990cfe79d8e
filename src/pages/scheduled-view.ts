import { PUBLISH_SCOPE } from '../graph/provider';
import type { ScheduledPost, ScheduledPosts } from '../graph/schemas';
import type { Locale } from '../i18n/locale';
import { csrfToken } from '../session/csrf';
import { permissionWords } from '../words';
import { newFormKey } from '../writes/keys';
import type { ViewStep } from './pipeline';
import type { WriteFormView } from './post-page-view';
import type { Publishing, ScheduledOutcome } from './scheduled';
import { formatScheduleTime, isTimeZone, localInputValue, timeZones } from './schedule-time';
import { linkify, type Segment } from './view-text';

/**
 * The scheduled posts' page shaped for people (docs/architecture.md#post-management): each post's text and its
 * time (exact, in UTC without script; public/app.js says it in the reader's own zone), and, for a person who may
 * publish, Reschedule, Publish now and Cancel, each a form of the one write path.
 */

/** The fields of a new time: a wall-clock time (`datetime-local`) and the IANA zone it is read in. */
export interface TimeFieldsView {
  label: string;
  value: string;
  zoneLabel: string;
  zone: string;
  /** The instant shown, when it is one (not a time sent back as typed): public/app.js shows it in the reader's zone. */
  epoch?: number;
}

export interface ScheduledActionsView {
  /** "Actions for the post scheduled for …": the group's name for screen readers. */
  label: string;
  reschedule: WriteFormView & { summary: string; when: TimeFieldsView };
  publish: WriteFormView;
  cancel: WriteFormView & { summary: string; confirm: string };
}

export interface ScheduledPostView {
  id: string;
  href: string;
  timeIso: string;
  timeText: string;
  lines: Segment[][];
  actions?: ScheduledActionsView;
}

/** How the forms are made: where they post, the CSRF token, a fresh one-time key each, the zone times are read in. */
export interface ScheduledForms {
  pageId: string;
  csrf: string;
  key: () => string;
  zone: string;
}

/** The zone the person last published or rescheduled in (the session keeps it), when known. */
type KnownZone = string | undefined;

/**
 * The fields of a new time, filled in with `epoch` in `zone`; when the zone is only the default (the person chose
 * none yet), public/app.js starts them in the browser's zone.
 */
export function timeFields(locale: Locale, epoch: number, zone: string, chosen: boolean): TimeFieldsView {
  return {
    label: locale.t('scheduled.timeLabel'),
    value: localInputValue(epoch, zone),
    zoneLabel: locale.t('scheduled.zoneLabel'),
    zone,
    ...(chosen ? {} : { epoch }),
  };
}

export function toScheduledView(
  posts: ScheduledPosts,
  locale: Locale,
  forms: ScheduledForms | undefined,
  known: KnownZone,
): ScheduledPostView[] {
  return posts.data.map((post) => scheduledPostView(post, locale, forms, known));
}

function scheduledPostView(
  post: ScheduledPost,
  locale: Locale,
  forms: ScheduledForms | undefined,
  known: KnownZone,
): ScheduledPostView {
  const at = post.scheduled_publish_time * 1000;
  const date = new Date(at);
  const href = `/pages/${forms?.pageId ?? post.id.split('_')[0]}/posts/${post.id}`;
  const view: ScheduledPostView = {
    id: post.id,
    href,
    timeIso: date.toISOString(),
    // In the person's own zone when they chose one, else UTC (public/app.js then says it in the browser's).
    timeText: known === undefined ? locale.dateTime(date) : formatScheduleTime(at, known, locale.intl),
    lines: (post.message ?? post.story ?? '').split(/\r?\n/).map(linkify),
  };
  if (forms === undefined) return view;
  const form = (what: string, text: string): WriteFormView => ({
    href: `${href}/write`,
    csrf: forms.csrf,
    key: forms.key(),
    do: what,
    target: post.id,
    text,
  });
  view.actions = {
    label: locale.t('scheduled.actionsFor', { time: view.timeText }),
    reschedule: {
      ...form('reschedule', locale.t('scheduled.move')),
      summary: locale.t('scheduled.reschedule'),
      when: timeFields(locale, at, forms.zone, known !== undefined),
    },
    publish: form('publish-now', locale.t('scheduled.publishNow')),
    cancel: {
      ...form('cancel', locale.t('scheduled.cancelYes')),
      summary: locale.t('scheduled.cancel'),
      confirm: locale.t('scheduled.cancelConfirm'),
    },
  };
  return view;
}

/** The scheduled posts' page: the list, and what this person may do with it, or why nothing. */
export function scheduledPageView(
  { req, res, access, locale }: ViewStep<{ pageId: string }>,
  { posts, publishing }: ScheduledOutcome,
): void {
  const { pageId } = access;
  const name = access.name || locale.t('page.fallbackName', { id: pageId });
  const self = `/pages/${pageId}/scheduled`;
  const known = isTimeZone(req.session.timeZone) ? req.session.timeZone : undefined;
  const forms: ScheduledForms | undefined =
    publishing === 'may' ? { pageId, csrf: csrfToken(req), key: newFormKey, zone: known ?? DEFAULT_ZONE } : undefined;
  res.render('scheduled', {
    title: locale.t('scheduled.documentTitle', { name }),
    page: { id: pageId, name },
    posts: toScheduledView(posts, locale, forms, known),
    why: publishingWhy(publishing, locale, self),
    zones: forms && posts.data.length > 0 ? timeZones() : undefined,
  });
}

/**
 * The zone a new time is read in until the person picks theirs (the session keeps the last one, as the composer's):
 * the server does not know the reader's zone; public/app.js starts the fields in the browser's.
 */
export const DEFAULT_ZONE = 'UTC';

/** Why the Page's posts come without controls (one line), and Ask again when the permission was not granted. */
export function publishingWhy(
  publishing: Publishing,
  locale: Locale,
  returnTo: string,
): { text: string; askAgain?: string } | undefined {
  if (publishing === 'not-granted')
    return {
      text: locale.t('manage.noPermission', { permission: permissionWords(locale, PUBLISH_SCOPE) }),
      askAgain: `/auth/login?rerequest=1&return_to=${encodeURIComponent(returnTo)}`,
    };
  if (publishing === 'no-task') return { text: locale.t('manage.noTask') };
  return undefined;
}
