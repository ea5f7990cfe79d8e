import type { Request, Response } from 'express';
import type { AppContext } from '../context';
import { refusalWords } from '../http/errors';
import type { Locale, Say } from '../i18n/locale';
import type { PageAccess, PageChanges } from '../session/access';
import { newFormKey } from '../writes/keys';
import { RefusedWrite, runWrite, type WriteAction, type WriteOutcome, type Writer } from '../writes/path';
import { roleOf } from './cache-policy';
import type { Load } from './pipeline';

/**
 * What every page write route shares (./write-routes.ts for the post page's; publishing declares its own route the
 * same way): the load that runs a {@link WriteAction} through the one write path (src/writes/path.ts), and the
 * words of a write that did not go through. A write route is a pageRoute (./pipeline.ts) with
 * `withoutToken: 'forbidden'`, this load, and a view that leads where the result shows or keeps the text.
 */

/** The action a form asks for, and its input as the action takes it. */
export interface AskedWrite<A> {
  action: WriteAction<A>;
  value: A;
}

/**
 * The load of a write route: the person's role as fresh as the page cache's rules keep it (a role changed on the
 * provider reaches writes as fast), then the write, once per the form's key.
 */
export function writeLoad<I extends { key: string }, A>(asked: (input: I) => AskedWrite<A>) {
  return async (ctx: AppContext, access: PageAccess, token: string, input: I): Promise<Load<WriteOutcome>> => {
    const changes: PageChanges = {};
    const tasks = await roleOf(ctx, access, changes);
    const { action, value } = asked(input);
    const outcome = await runWrite(ctx, writerOf(access, tasks), token, action, value, input.key);
    return { outcome, changes };
  };
}

/** A form the provider would refuse as it is (a time outside its window, no picture): said in words, no call. */
export function unsendable(say: Say): Load<WriteOutcome> {
  return { outcome: { status: 'refused', refusal: { code: 'write_unsendable', say } }, changes: {} };
}

function writerOf(access: PageAccess, tasks: readonly string[] | undefined): Writer {
  return {
    sessionId: access.sessionId,
    request: access.request,
    userId: access.userId,
    pageId: access.pageId,
    tasks,
    scopes: access.scopes,
  };
}

/**
 * The page of a write that did not go through: its status, headline and reason, and the key its form carries
 * again — the same key after no answer (sending it again checks by reading, never writes twice), a new one once
 * it is known the write was not made.
 */
/** The words of a write that did not go through, and the key its form carries again. */
export interface NotSent {
  status: number;
  title: string;
  reason: string;
  key: string;
  button?: string;
  askAgain?: boolean;
}

/**
 * The kept-text page (views/write.ejs): the outcome's status, headline and reason, Ask again when a permission is
 * missing (back to `back` after), and the route's own form with what the person wrote (`view`).
 */
export function renderNotSent(res: Response, shown: NotSent, back: string, view: Record<string, unknown>): void {
  res.status(shown.status).render('write', {
    title: shown.title,
    heading: shown.title,
    reason: shown.reason,
    askAgain: shown.askAgain ? `/auth/login?rerequest=1&return_to=${encodeURIComponent(back)}` : undefined,
    back,
    ...view,
  });
}

export function notSent(
  req: Request,
  locale: Locale,
  outcome: Exclude<WriteOutcome, { status: 'done' }>,
  key: string,
): NotSent {
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
