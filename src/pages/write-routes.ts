import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context';
import { ENGAGEMENT_SCOPE } from '../graph/provider';
import { refusalWords } from '../http/errors';
import { pageIdField, pageIdParam, parseInput, queryParam, refusal } from '../http/params';
import type { MessageKey } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import type { PageAccess, PageChanges } from '../session/access';
import { csrfToken, requireCsrf } from '../session/csrf';
import { save } from '../session/persist';
import { permissionWords } from '../words';
import { isFormKey, newFormKey } from '../writes/keys';
import { RefusedWrite, runWrite, type WriteOutcome, type Writer } from '../writes/path';
import {
  COMMENT_ACTIONS,
  COMMENT_WRITES,
  ENGAGE_TASKS,
  MODERATE_TASKS,
  type CommentActionName,
} from './comment-actions';
import { roleOf } from './cache-policy';
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
  .refine(({ body }) => body.do !== 'reply' || (body.message ?? '').trim() !== '', badForm());

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

export function writeRoutes(ctx: AppContext): Router {
  const router = Router();
  router.param('pageId', (req, _res, next, value) => {
    req.params.pageId = pageIdParam(value);
    next();
  });
  // CSRF before anything else reads the form.
  router.post(WRITE_PATH, requireCsrf, (req, res) => write(ctx, req, res));
  return router;
}

async function write(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const { params, query, body } = parseInput(writeInput, { params: req.params, query: req.query, body: req.body });
  const { pageId, postId } = params;
  const { do: what, target, _key: key } = body;
  const message = what === 'reply' ? (body.message ?? '').trim() : undefined;
  const access = ctx.signIns.pageAccess(req, pageId);
  // The role as the page cache's freshness rules keep it: a role changed on the provider reaches writes as fast.
  const changes: PageChanges = {};
  const tasks = access.pageToken ? await roleOf(ctx, access, changes) : access.tasks;
  ctx.signIns.applyPageChanges(req, pageId, changes);
  const writer: Writer = {
    sessionId: access.sessionId,
    request: access.request,
    userId: ctx.signIns.current(req)?.userId,
    pageId,
    pageToken: access.pageToken,
    tasks,
    scopes: access.scopes,
  };
  const input = { postId, target, ...(message !== undefined ? { message } : {}) };
  const outcome = await runWrite(ctx, writer, COMMENT_WRITES[what], input, key);
  const post = `/pages/${pageId}/posts/${postId}`;
  if (outcome.status === 'done') {
    req.session.flash = { key: `write.done.${what}` satisfies MessageKey };
    await save(req);
    // Back where the comment shows: its thread open when it is a reply (the form's `replies`, or the comment replied to).
    const thread = what === 'reply' && target !== postId ? target : openThread(query.replies, postId);
    const at = thread === undefined ? post : `${post}?replies=${encodeURIComponent(thread)}`;
    res.redirect(303, what === 'delete' ? `${at}#comments` : `${at}#comment-${outcome.objectId}`);
    return;
  }
  const locale = res.locals.locale;
  const page = notSent(req, locale, outcome, key);
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
 * The page of a write that did not go through: its status, headline and reason, and the key its form carries
 * again — the same key after no answer (sending it again checks by reading, never writes twice), a new one once
 * it is known the write was not made.
 */
function notSent(
  req: Request,
  locale: Locale,
  outcome: Exclude<WriteOutcome, { status: 'done' }>,
  key: string,
): { status: number; title: string; reason: string; key: string; button?: string; askAgain?: boolean } {
  switch (outcome.status) {
    case 'refused': {
      const err = new RefusedWrite(outcome.refusal);
      return {
        status: err.status,
        title: locale.t('write.title.refused'),
        reason: refusalWords(err, req, locale),
        key: newFormKey(),
        askAgain: err.code === 'graph_permission',
      };
    }
    case 'unknown':
      return {
        status: 504,
        title: locale.t('write.title.unknown'),
        reason: locale.t('write.unknown'),
        key,
        button: locale.t('write.check'),
      };
    case 'absent':
      return {
        status: 409,
        title: locale.t('write.title.absent'),
        reason: locale.t('write.absent'),
        key: newFormKey(),
        button: locale.t('write.sendAgain'),
      };
    case 'busy':
      return { status: 409, title: locale.t('write.title.busy'), reason: locale.t('write.busy'), key };
  }
}

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
