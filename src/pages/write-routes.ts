import express, { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context';
import { ENGAGEMENT_SCOPE } from '../graph/provider';
import { pageIdField, pageRouter, queryParam, refusal } from '../http/params';
import type { MessageKey } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import type { PageAccess } from '../session/access';
import { csrfToken, requireCsrf } from '../session/csrf';
import { save } from '../session/persist';
import { permissionWords } from '../words';
import { isFormKey, newFormKey } from '../writes/keys';
import type { WriteOutcome } from '../writes/path';
import { notSent, renderNotSent, unsendable, writeLoad, type AskedWrite, type NotSent } from './page-writes';
import { pageRoute, type ViewStep } from './pipeline';
import {
  COMMENT_ACTIONS,
  COMMENT_WRITES,
  ENGAGE_TASKS,
  MODERATE_TASKS,
  type CommentActionName,
  type CommentInput,
} from './comment-actions';
import { asksFor } from './offered';
import type { PostActions, WriteFormView } from './post-page-view';
import { POST_ACTIONS, POST_WRITES, type PostActionName, type PostInput } from './post-actions';
import { isTimeZone, parseScheduleTime, timeWordsOf, timeZones } from './schedule-time';
import type { TimeFieldsView } from './scheduled-view';

/**
 * The post page's writes (docs/architecture.md#writes): one route, `POST /pages/:pageId/posts/:postId/write`,
 * for every action of ./comment-actions.ts and of ./post-actions.ts (the post itself: edit, delete, and a scheduled
 * one's publish now, reschedule, cancel), through the one write path (src/writes/path.ts): one route per object,
 * so the scheduled posts' page posts its forms here too. Without script the
 * form posts and the answer is the post page again (303) or, when the write did not go through, a page with the
 * text kept and the reason; public/app.js sends the same form without a reload and reads the same answers.
 */

/** Longest text of a reply (the provider's own limit for a comment is larger than anyone types here). */
export const MAX_MESSAGE = 8000;

/** A reply of MAX_MESSAGE characters, each up to 4 bytes, percent-encoded (×3), with room for the other fields. */
const WRITE_BODY_LIMIT = '100kb';

const POST_OR_COMMENT = /^\d{1,32}_\d{1,32}$/;

type ActionName = CommentActionName | PostActionName;
const ACTIONS = [...COMMENT_ACTIONS, ...POST_ACTIONS] as [ActionName, ...ActionName[]];
const isPostAction = (what: ActionName): what is PostActionName => (POST_ACTIONS as readonly string[]).includes(what);
/** The actions with a text the person typed: kept as typed, but for the spaces around it. */
const WITH_TEXT: readonly ActionName[] = ['reply', 'edit'];

/**
 * The write route's input, params and body in one schema (as every page route's, ./pipeline.ts): the post's and the
 * target's shape only. Whether they are the Page's is the write path's own step (`belongs`): a forged form for
 * another Page's post or comment is its 403, not a 404.
 */
const writeInput = z
  .object({
    params: z.object({ pageId: pageIdField, postId: z.string().regex(POST_OR_COMMENT, badForm()) }),
    query: z.object({ replies: queryParam(80).optional() }).passthrough(),
    body: z.object({
      do: z.enum(ACTIONS, badForm()),
      target: z.string(badForm()).regex(POST_OR_COMMENT, badForm()),
      _key: z.string(badForm()).refine(isFormKey, badForm()),
      message: z.string(badForm()).max(MAX_MESSAGE, badForm()).optional(),
      // A new time (reschedule): a wall-clock time and the zone it is read in, as the form's fields send them.
      when: z.string(badForm()).max(40, badForm()).optional(),
      zone: z.string(badForm()).max(64, badForm()).optional(),
    }),
  })
  .refine(({ body }) => !WITH_TEXT.includes(body.do) || (body.message ?? '').trim() !== '', badForm())
  // A post action's object is the post itself.
  .refine(({ params, body }) => !isPostAction(body.do) || body.target === params.postId, badForm())
  .transform(({ params, query, body }) => ({
    ...params,
    replies: query.replies,
    what: body.do,
    target: body.target,
    key: body._key,
    // Only a reply and an edit have text; kept as typed but for the spaces around it.
    message: WITH_TEXT.includes(body.do) ? (body.message ?? '').trim() : undefined,
    // Only a reschedule has a time: as sent (read against the window at the load, and to fill the form in again).
    when: body.do === 'reschedule' ? { local: body.when ?? '', zone: body.zone ?? '' } : undefined,
  }));

type WriteInput = z.output<typeof writeInput>;

function badForm() {
  return refusal({ key: 'error.badInput.text' });
}

/** The write route, under /pages. */
export const WRITE_PATH = '/:pageId/posts/:postId/write';

/**
 * The write route's own body parser, mounted on its path before the app's (8 kB): a reply's text must never be
 * refused for its length after the person typed it (the textarea's `maxlength` bounds it first).
 */
export function writeBody(): RequestHandler {
  return express.urlencoded({ extended: false, limit: WRITE_BODY_LIMIT, parameterLimit: 10 });
}

/** The post page's write route: a {@link pageRoute} whose load is the write and whose view is where it leads. */
export function writeRoutes(ctx: AppContext): Router {
  const router = pageRouter();
  // CSRF before anything else reads the form.
  router.post(
    WRITE_PATH,
    requireCsrf,
    pageRoute(ctx, {
      input: writeInput,
      withoutToken: 'forbidden',
      load: async (ctx, access, token, input) => {
        // A new time outside the provider's window is refused in words before any call, as the composer's is.
        const time = input.when && parseScheduleTime(input.when.local, input.when.zone, ctx.now());
        if (time && 'refused' in time) return unsendable({ key: `schedule.refused.${time.refused}` });
        return writeLoad(asked)(ctx, access, token, { ...input, at: time?.at });
      },
      view: written,
    }),
  );
  return router;
}

/** The action the form asks for, and its input as the action takes it. */
function asked(input: WriteInput & { at: number | undefined }): AskedWrite<CommentInput | PostInput> {
  const message = input.message !== undefined ? { message: input.message } : {};
  if (isPostAction(input.what))
    return {
      action: POST_WRITES[input.what],
      value: { postId: input.postId, ...message, ...(input.at !== undefined ? { at: input.at } : {}) },
    };
  return { action: COMMENT_WRITES[input.what], value: { postId: input.postId, target: input.target, ...message } };
}

/** Where a write leads: a comment's to its post (commentWritten), a post's as postWritten says. */
function written(step: ViewStep<WriteInput>, outcome: WriteOutcome): Promise<void> {
  const { what } = step.input;
  return isPostAction(what) ? postWritten(step, what, outcome) : commentWritten(step, what, outcome);
}

/**
 * A post action done: to where its result shows (303) — the post after an edit, the Page after a deletion or
 * publishing now (the post first in its feed), the scheduled posts after moving or cancelling one. Not done: the
 * form again, with the text or the time as sent, and why.
 */
async function postWritten(step: ViewStep<WriteInput>, what: PostActionName, outcome: WriteOutcome): Promise<void> {
  const { ctx, req, res, input, locale } = step;
  const { pageId, postId, when } = input;
  const page = `/pages/${pageId}`;
  const post = `${page}/posts/${postId}`;
  const scheduled = what === 'publish-now' || what === 'reschedule' || what === 'cancel';
  if (outcome.status === 'done') {
    req.session.flash = { key: `write.done.${what}` satisfies MessageKey };
    // The zone a time was given in is the person's, as the composer keeps it.
    if (when !== undefined && isTimeZone(when.zone)) req.session.timeZone = when.zone;
    await save(req);
    res.redirect(303, what === 'edit' ? post : what === 'reschedule' || what === 'cancel' ? `${page}/scheduled` : page);
    return;
  }
  // A new time's refusal says the window's end it passed, in the zone the person chose.
  const notDone = notSent(req, locale, timeWordsOf(outcome, when?.zone ?? '', ctx.now(), locale), input.key);
  const back = scheduled ? `${page}/scheduled` : post;
  const time: TimeFieldsView | undefined =
    when === undefined
      ? undefined
      : {
          label: locale.t('scheduled.timeLabel'),
          value: when.local,
          zoneLabel: locale.t('scheduled.zoneLabel'),
          zone: when.zone,
        };
  formAgain(step, notDone, back, POST_ACTION_WORDS[what], 'manage.textLabel', {
    when: time,
    zones: time ? timeZones() : undefined,
    backText: locale.t(scheduled ? 'write.backToScheduled' : 'write.back'),
  });
}

const POST_ACTION_WORDS: Record<PostActionName, MessageKey> = {
  edit: 'manage.save',
  'delete-post': 'manage.deleteYes',
  'publish-now': 'scheduled.publishNow',
  reschedule: 'scheduled.move',
  cancel: 'scheduled.cancelYes',
};

/** Done: back to the post, where the comment shows (303). Not done: the form again, with the text and why. */
async function commentWritten(
  step: ViewStep<WriteInput>,
  what: CommentActionName,
  outcome: WriteOutcome,
): Promise<void> {
  const { req, res, input, locale } = step;
  const { pageId, postId, target } = input;
  const post = `/pages/${pageId}/posts/${postId}`;
  if (outcome.status === 'done') {
    req.session.flash = { key: `write.done.${what}` satisfies MessageKey };
    await save(req);
    // Back where the comment shows: its thread open when it is a reply (the form's `replies`, or the comment replied to).
    const thread = what === 'reply' && target !== postId ? target : openThread(input.replies, postId);
    const at = thread === undefined ? post : `${post}?replies=${encodeURIComponent(thread)}`;
    res.redirect(303, what === 'delete' ? `${at}#comments` : `${at}#comment-${outcome.objectId}`);
    return;
  }
  const button = what === 'reply' ? 'act.send' : ACTION_WORDS[what];
  formAgain(step, notSent(req, locale, outcome, input.key), post, button, 'write.textLabel');
}

/**
 * A write not done: the page with why (renderNotSent), the form again as the person sent it — its action and
 * object, the key the outcome gives it, their text in the box labelled `textLabel` — and the button saying what
 * sending it does now (`button`, when the outcome has no words of its own). `more`: the action's own fields.
 */
function formAgain(
  { req, res, input, locale }: ViewStep<WriteInput>,
  shown: NotSent,
  back: string,
  button: MessageKey,
  textLabel: MessageKey,
  more: Record<string, unknown> = {},
): void {
  const { pageId, postId, what, target, message } = input;
  renderNotSent(res, shown, back, {
    kept: message !== undefined,
    form: {
      href: `/pages/${pageId}/posts/${postId}/write`,
      csrf: csrfToken(req),
      key: shown.key,
      do: what,
      target,
      text: shown.button ?? locale.t(button),
    } satisfies WriteFormView,
    textbox: message !== undefined ? { label: locale.t(textLabel), kept: message } : undefined,
    ...more,
  });
}

/** `replies` on the form's address: the thread open on the page the form was on, a comment of this post. */
function openThread(value: string | undefined, postId: string): string | undefined {
  return value !== undefined && POST_OR_COMMENT.test(value) && value.split('_')[0] === postId.split('_')[1]
    ? value
    : undefined;
}

const ACTION_WORDS: Record<Exclude<CommentActionName, 'reply'>, MessageKey> = {
  like: 'act.like',
  unlike: 'act.unlike',
  hide: 'act.hide',
  unhide: 'act.unhide',
  delete: 'act.deleteYes',
};

/**
 * What the post page offers this person (./post-page-view.ts PostActions), from the session's grant and role;
 * undefined when the app does not ask for pages_manage_engagement (FB_SCOPES), so nothing about it is shown.
 */
export function postActions(
  ctx: AppContext,
  req: Request,
  access: PageAccess,
  tasks: readonly string[] | undefined,
  postId: string,
  locale: Locale,
  replies?: string,
): PostActions | undefined {
  if (!asksFor(ctx.config, ENGAGEMENT_SCOPE)) return undefined;
  const post = `/pages/${access.pageId}/posts/${postId}`;
  const base = {
    href: `${post}/write${replies === undefined ? '' : `?replies=${encodeURIComponent(replies)}`}`,
    csrf: csrfToken(req),
    key: newFormKey,
    pageName: access.name || locale.t('page.fallbackName', { id: access.pageId }),
  };
  if (access.scopes !== undefined && !access.scopes.includes(ENGAGEMENT_SCOPE))
    return {
      ...base,
      engage: false,
      moderate: false,
      why: {
        text: locale.t('act.noPermission', { permission: permissionWords(locale, ENGAGEMENT_SCOPE) }),
        askAgain: `/auth/login?rerequest=1&return_to=${encodeURIComponent(post)}`,
      },
    };
  const engage = tasks?.some((t) => ENGAGE_TASKS.includes(t)) ?? false;
  const moderate = tasks?.some((t) => MODERATE_TASKS.includes(t)) ?? false;
  if (!engage && !moderate) return { ...base, engage, moderate, why: { text: locale.t('act.noTask') } };
  return { ...base, engage, moderate };
}
