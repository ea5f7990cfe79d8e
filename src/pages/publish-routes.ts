import { Router, type Request } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context';
import { PUBLISH_SCOPE, PUBLISH_TASKS } from '../graph/provider';
import { pageIdField, pageRouter, refusal } from '../http/params';
import type { Locale, Say } from '../i18n/locale';
import type { PageAccess } from '../session/access';
import { csrfToken, requireCsrf } from '../session/csrf';
import { save } from '../session/persist';
import { webUrl } from '../web-url';
import { permissionWords } from '../words';
import { isFormKey, newFormKey } from '../writes/keys';
import type { WriteOutcome } from '../writes/path';
import { asksFor } from './offered';
import { notSent, renderNotSent, unsendable, writeLoad } from './page-writes';
import { MAX_PHOTO_BYTES, PHOTO_TYPES, photoType } from './photo-check';
import { pageRoute, type Load, type ViewStep } from './pipeline';
import { PUBLISH, type PublishInput } from './publish-actions';
import { publishBody } from './publish-body';
import { formatScheduleTime, instantOf, isTimeZone, parseScheduleTime, timeWordsOf, timeZones } from './schedule-time';

/**
 * The composer (docs/architecture.md#publishing): `POST /pages/:pageId/publish`, a pageRoute like every write
 * route (./write-routes.ts): CSRF first, the Page's token or a 403, the write through the one write path
 * (src/writes/path.ts) as its load, and a view that leads to the post or keeps the text with why. What the
 * provider would refuse for the form alone (a time outside its window, a file that is no picture or too large,
 * nothing to say) is refused here in words before any provider call, the text kept.
 */

/** Longest text of a post taken here: the provider's limit for a post (63,206 characters). */
export const MAX_POST_TEXT = 63_206;
const MAX_LINK = 2000;

const badForm = () => refusal({ key: 'error.badInput.text' });
const text = (max: number) => z.string(badForm()).max(max, badForm());

const uploadSchema = z.union([
  z.object({ data: z.instanceof(Buffer), tooLarge: z.literal(false) }),
  z.object({ tooLarge: z.literal(true) }),
]);

/** The composer's form: its params and body in one schema; the photo as the multipart parser read it. */
const publishInput = z
  .object({
    params: z.object({ pageId: pageIdField }),
    body: z.object({
      _key: z.string(badForm()).refine(isFormKey, badForm()),
      message: text(MAX_POST_TEXT).optional(),
      link: text(MAX_LINK).optional(),
      when: z.enum(['now', 'later'], badForm()).optional(),
      at: text(40).optional(),
      zone: text(64).optional(),
      source: uploadSchema.optional(),
      // The form offered to check whether a photo post arrived (no answer in time): its photo is not asked again.
      check: z.enum(['photo'], badForm()).optional(),
    }),
  })
  .transform(({ params, body }) => ({
    pageId: params.pageId,
    key: body._key,
    // Kept as typed but for the spaces around it.
    message: (body.message ?? '').trim(),
    link: (body.link ?? '').trim(),
    when: body.when ?? 'now',
    at: body.at ?? '',
    zone: body.zone ?? '',
    photo: body.source,
    check: body.check,
  }));

type ComposerInput = z.output<typeof publishInput>;

/** The composer's route. */
export function publishRoutes(ctx: AppContext): Router {
  const router = pageRouter();
  // The multipart body, its CSRF token read first (./publish-body.ts); then CSRF checked as for every write.
  router.post(
    '/:pageId/publish',
    publishBody(),
    requireCsrf,
    pageRoute(ctx, { input: publishInput, withoutToken: 'forbidden', load: publishLoad, view: publishedView }),
  );
  return router;
}

const write = writeLoad((value: PublishInput & { key: string }) => ({ action: PUBLISH, value }));

/** The form checked first, with no provider call; then the write, once per the form's key. */
async function publishLoad(
  ctx: AppContext,
  access: PageAccess,
  token: string,
  input: ComposerInput,
): Promise<Load<WriteOutcome>> {
  const checked = checkPost(input, ctx.now());
  if ('refused' in checked) return unsendable(checked.refused);
  return write(ctx, access, token, { ...checked.value, key: input.key });
}

/**
 * What the provider would refuse for the form alone, said before any call: nothing to post, a link and a photo
 * together (a photo post takes no link), a link that is no web address, a file too large or no picture (by its
 * bytes), a time outside the window.
 */
export function checkPost(input: ComposerInput, now: number): { value: PublishInput } | { refused: Say } {
  const { pageId, message, link, photo } = input;
  // A check of a photo post needs no photo: it reads, and never sends one again (src/writes/path.ts).
  const photoSent = input.check === 'photo' && photo === undefined;
  if (message === '' && link === '' && photo === undefined && !photoSent)
    return { refused: { key: 'publish.refused.empty' } };
  if (link !== '' && photo !== undefined) return { refused: { key: 'publish.refused.linkAndPhoto' } };
  if (link !== '' && webUrl(link) === undefined) return { refused: { key: 'publish.refused.link' } };
  let picture: PublishInput['photo'];
  if (photo !== undefined) {
    if (photo.tooLarge) return { refused: { key: 'publish.refused.tooLarge', values: { max: PHOTO_MB } } };
    const type = photoType(photo.data);
    if (type === undefined) return { refused: { key: 'publish.refused.notPhoto' } };
    picture = { data: photo.data, type };
  }
  let scheduledAt: number | undefined;
  if (input.when === 'later') {
    const parsed = parseScheduleTime(input.at, input.zone, now);
    // Its words name the window's ends in the person's zone and language: filled in by the view (timeWordsOf).
    if ('refused' in parsed) return { refused: { key: `schedule.refused.${parsed.refused}` } };
    scheduledAt = parsed.at;
  }
  return {
    value: {
      pageId,
      message,
      ...(link !== '' ? { link } : {}),
      ...(picture !== undefined ? { photo: picture } : {}),
      ...(scheduledAt !== undefined ? { scheduledAt } : {}),
      ...(photoSent ? { photoSent } : {}),
    },
  };
}

const PHOTO_MB = MAX_PHOTO_BYTES / 1024 / 1024;

/**
 * Done: to the Page, where the new post is first (303), with a line saying so — for a scheduled post, when it
 * goes live, in the person's own time zone. Not done: the composer again with the text and why.
 */
async function publishedView(
  { ctx, req, res, access, input, locale }: ViewStep<ComposerInput>,
  outcome: WriteOutcome,
): Promise<void> {
  const page = `/pages/${input.pageId}`;
  if (isTimeZone(input.zone)) req.session.timeZone = input.zone;
  if (outcome.status === 'done') {
    const at = input.when === 'later' ? instantOf(input.at, input.zone) : undefined;
    req.session.flash =
      at === undefined
        ? { key: 'publish.done.now' }
        : { key: 'publish.done.later', values: { time: formatScheduleTime(at, input.zone, locale.intl) } };
    await save(req);
    res.redirect(303, at === undefined ? `${page}#post-${outcome.objectId}` : page);
    return;
  }
  const shown = notSent(req, locale, timeWordsOf(outcome, input.zone, ctx.now(), locale), input.key);
  renderNotSent(res, shown, page, {
    kept: input.message !== '' || input.link !== '',
    // A check (same key) reads for the photo post it was; any other form asks for the photo again.
    photoAgain: input.photo !== undefined && shown.key !== input.key,
    composer: composerForm(req, locale, access, shown.key, shown.button ?? locale.t('publish.submit'), input),
    backText: locale.t('publish.back'),
  });
}

/** The composer as views/partials/composer.ejs prints it. */
export interface ComposerView {
  heading: string;
  /** Why there is no form: the permission not granted, with the way to allow it. */
  why?: { text: string; askAgain: string };
  form?: {
    href: string;
    csrf: string;
    key: string;
    button: string;
    accept: string;
    photoLabel: string;
    kept: { message: string; link: string; later: boolean; at: string };
    zones: readonly string[];
    zone: string;
    /** The session has no zone yet: public/app.js picks the browser's. */
    guessZone: boolean;
    /** The form checks whether a photo post arrived: it asks for no photo. */
    check?: 'photo';
  };
}

/**
 * What the Page view offers this person above its posts: the composer when the app asks for pages_manage_posts
 * (FB_SCOPES), the person granted it and their tasks include CREATE_CONTENT or MANAGE; one line with **Ask
 * again** when they did not grant it; nothing for a role that cannot publish (a forged form is the write path's
 * 403).
 */
export function composer(ctx: AppContext, req: Request, access: PageAccess, locale: Locale): ComposerView | undefined {
  if (!asksFor(ctx.config, PUBLISH_SCOPE)) return undefined;
  if (!access.tasks?.some((task) => PUBLISH_TASKS.includes(task))) return undefined;
  if (access.scopes !== undefined && !access.scopes.includes(PUBLISH_SCOPE))
    return {
      heading: locale.t('publish.title', { name: access.name || locale.t('page.fallbackName', { id: access.pageId }) }),
      why: {
        text: locale.t('publish.noPermission', { permission: permissionWords(locale, PUBLISH_SCOPE) }),
        askAgain: `/auth/login?rerequest=1&return_to=${encodeURIComponent(`/pages/${access.pageId}`)}`,
      },
    };
  return composerForm(req, locale, access, newFormKey(), locale.t('publish.submit'));
}

function composerForm(
  req: Request,
  locale: Locale,
  access: PageAccess,
  key: string,
  button: string,
  kept?: ComposerInput,
): ComposerView {
  const remembered = req.session.timeZone;
  // Carrying the same key, the form checks the write it kept: a photo post's photo is not asked for again.
  const checksPhoto = kept !== undefined && key === kept.key && (kept.photo !== undefined || kept.check === 'photo');
  const zone = kept && isTimeZone(kept.zone) ? kept.zone : isTimeZone(remembered) ? remembered : 'UTC';
  return {
    heading: locale.t('publish.title', {
      name: access.name || locale.t('page.fallbackName', { id: access.pageId }),
    }),
    form: {
      href: `/pages/${access.pageId}/publish`,
      csrf: csrfToken(req),
      key,
      button,
      accept: PHOTO_TYPES.join(','),
      photoLabel: locale.t('publish.photo', { max: PHOTO_MB }),
      kept: {
        message: kept?.message ?? '',
        link: kept?.link ?? '',
        later: kept?.when === 'later',
        at: kept?.at ?? '',
      },
      zones: timeZones(),
      zone,
      guessZone: kept === undefined && !isTimeZone(remembered),
      ...(checksPhoto ? { check: 'photo' as const } : {}),
    },
  };
}
