import express, { Router, type Request } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context';
import { ENGAGEMENT_SCOPE } from '../graph/provider';
import { pageIdField, pageIdParam, queryParam, refusal } from '../http/params';
import type { MessageKey } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import type { PageAccess } from '../session/access';
import { csrfToken, requireCsrf } from '../session/csrf';
import { save } from '../session/persist';
import { permissionWords } from '../words';
import { isFormKey, newFormKey } from '../writes/keys';
import type { WriteOutcome } from '../writes/path';
import { notSent, writeLoad } from './page-writes';
import { pageRoute, type ViewStep } from './pipeline';
import {
  COMMENT_ACTIONS,
  COMMENT_WRITES,
  ENGAGE_TASKS,
  MODERATE_TASKS,
  type CommentActionName,
} from './comment-actions';
import { asksFor } from './offered';
import type { PostActions, WriteFormView } from './post-page-view';

/**
 * The post page's writes (docs/architecture.md#writes): one route, `POST /pages/:pageId/posts/:postId/write`,
 * for every action of ./comment-actions.ts, through the one write path (src/writes/path.ts). Without script the
 * form posts and the answer is the post page again (303) or, when the write did not go through, a page with the
 * text kept and the reason; public/app.js sends the same form without a reload and reads the same answers.
 */

/** Longest text of a reply (the provider's own limit for a comment is larger than anyone types here). */
export const MAX_MESSAGE = 8000;

/** A reply of MAX_MESSAGE characters, each up to 4 bytes, percent-encoded (×3), with room for the other fields. */
const WRITE_BODY_LIMIT = '100kb';

const POST_OR_COMMENT = /^\d{1,32}_\d{1,32}$/;

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
      do: z.enum(COMMENT_ACTIONS as [CommentActionName, ...CommentActionName[]], badForm()),
      target: z.string(badForm()).regex(POST_OR_COMMENT, badForm()),
      _key: z.string(badForm()).refine(isFormKey, badForm()),
      message: z.string(badForm()).max(MAX_MESSAGE, badForm()).optional(),
    }),
  })
  .refine(({ body }) => body.do !== 'reply' || (body.message ?? '').trim() !== '', badForm())
  .transform(({ params, query, body }) => ({
    ...params,
    replies: query.replies,
    what: body.do,
    target: body.target,
    key: body._key,
    // Only a reply has text; kept as typed but for the spaces around it.
    message: body.do === 'reply' ? (body.message ?? '').trim() : undefined,
  }));

type WriteInput = z.output<typeof writeInput>;

function badForm() {
  return refusal({ key: 'error.badInput.text' });
}

/**
 * The write route's own body parser, mounted before the app's (8 kB): a reply's text must never be refused for
 * its length after the person typed it (the textarea's `maxlength` bounds it first).
 */
export function writeBodies(): Router {
  const router = Router();
  router.post(
    '/:pageId/posts/:postId/write',
    express.urlencoded({ extended: false, limit: WRITE_BODY_LIMIT, parameterLimit: 10 }),
  );
  return router;
}

/** The post page's write route: a {@link pageRoute} whose load is the write and whose view is where it leads. */
export function writeRoutes(ctx: AppContext): Router {
  const router = Router();
  router.param('pageId', (req, _res, next, value) => {
    req.params.pageId = pageIdParam(value);
    next();
  });
  // CSRF before anything else reads the form.
  router.post(
    '/:pageId/posts/:postId/write',
    requireCsrf,
    pageRoute(ctx, {
      input: writeInput,
      withoutToken: 'forbidden',
      load: writeLoad((input: WriteInput) => ({
        action: COMMENT_WRITES[input.what],
        value: {
          postId: input.postId,
          target: input.target,
          ...(input.message !== undefined ? { message: input.message } : {}),
        },
      })),
      view: commentWritten,
    }),
  );
  return router;
}

/** Done: back to the post, where the comment shows (303). Not done: the form again, with the text and why. */
async function commentWritten({ req, res, input, locale }: ViewStep<WriteInput>, outcome: WriteOutcome): Promise<void> {
  const { pageId, postId, what, target, message } = input;
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
  const page = notSent(req, locale, outcome, input.key);
  res.status(page.status).render('write', {
    title: page.title,
    heading: page.title,
    reason: page.reason,
    askAgain: page.askAgain ? `/auth/login?rerequest=1&return_to=${encodeURIComponent(post)}` : undefined,
    kept: message !== undefined,
    form: {
      href: `${post}/write`,
      csrf: csrfToken(req),
      key: page.key,
      do: what,
      target,
      text: page.button ?? locale.t(what === 'reply' ? 'act.send' : ACTION_WORDS[what]),
    } satisfies WriteFormView,
    textbox: message !== undefined ? { label: locale.t('write.textLabel'), kept: message } : undefined,
    back: post,
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
