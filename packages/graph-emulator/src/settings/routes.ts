/**
 * The person's "Apps and Websites" settings, as on the provider: the apps the
 * person has logged in to, each with "Remove <app>" and "Remove and request
 * deletion" (package README, "Removing an app"). The emulator has no login of
 * its own, so the person is chosen by id. Checks run in this order: shape
 * (400), same-site and form token (403), then existence (404).
 */
import express, { Router, type Request, type Response } from 'express';
import { removeApp } from '../callbacks/remove';
import type { Context } from '../context';
import { renderError, renderPage, setHtmlHeaders, type Say } from '../dialog/html';
import type { CallbackDelivery, EmulatorClient } from '../types';
import { formToken, formTokenValid } from './form-token';
import { knownHost } from '../hosts';

const PAGE = '/settings/apps';
const REMOVE = '/settings/apps/remove';
const ID_RE = /^\d{1,32}$/;
const CLIENT_ID_RE = /^[\w.-]{1,128}$/;
const ACTIONS = new Set(['remove', 'remove_and_delete']);

export function settingsRouter(ctx: Context): Router {
  const router = Router();
  // Only by the names the emulator is opened by: a page that rebinds its own name to this address gets nothing.
  router.use([PAGE, REMOVE], (req, res, next) => {
    if (knownHost(req.get('host'), ctx.port, ctx.clients.values(), ctx.hosts)) return next();
    renderError(res, 403, 'problem.forbiddenTitle', 'problem.ownAddress');
  });
  router.get(PAGE, (req, res) => {
    const user = req.query.user;
    if (user === undefined) return showPeople(ctx, res);
    if (typeof user !== 'string' || !ID_RE.test(user)) {
      return renderError(res, 400, 'problem.invalidRequest', 'problem.personId');
    }
    const person = ctx.data.user(user);
    if (person === undefined) return renderError(res, 404, 'problem.notFoundTitle', 'problem.noPerson');
    const now = ctx.now();
    const apps = [...ctx.tokens.authorisedClients(user)]
      .map(([clientId, since]) => ({ client: ctx.clients.get(clientId), since }))
      .filter((a): a is { client: EmulatorClient; since: number } => a.client !== undefined)
      .map(({ client, since }) => ({
        name: client.name,
        clientId: client.clientId,
        since: new Date(since).toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
        sinceIso: new Date(since).toISOString(),
        formToken: formToken(ctx.formKey, user, client.clientId, now),
      }));
    setHtmlHeaders(res);
    renderPage(res, 'settings', { person: { id: person.id, name: person.name }, apps, people: [] });
  });
  router.post(REMOVE, express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 }), (req, res, next) => {
    remove(ctx, req, res).catch(next);
  });
  router.all([PAGE, REMOVE], (_req, res) => {
    renderError(res, 405, 'problem.methodTitle', 'problem.settingsMethod');
  });
  return router;
}

function showPeople(ctx: Context, res: Response): void {
  setHtmlHeaders(res);
  renderPage(res, 'settings', {
    person: undefined,
    apps: [],
    people: ctx.data.allUsers().map((u) => ({ id: u.id, name: u.name })),
  });
}

/**
 * A browser says where a form came from; another site's page must not remove
 * apps. `Sec-Fetch-Site` decides when sent. Otherwise `Origin` must be ours,
 * except "null", which these pages cause themselves (`Referrer-Policy:
 * no-referrer`); the form token still has to match.
 */
function crossSite(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = req.get('origin');
  return origin !== undefined && origin !== 'null' && origin !== `${req.protocol}://${req.get('host') ?? ''}`;
}

async function remove(ctx: Context, req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const { user_id: userId, client_id: clientId, form_token: token, action } = body;
  if (
    typeof userId !== 'string' ||
    !ID_RE.test(userId) ||
    typeof clientId !== 'string' ||
    !CLIENT_ID_RE.test(clientId) ||
    typeof action !== 'string' ||
    !ACTIONS.has(action)
  ) {
    return renderError(res, 400, 'problem.invalidRequest', 'problem.chooseApp');
  }
  if (crossSite(req) || typeof token !== 'string' || !formTokenValid(ctx.formKey, token, userId, clientId, ctx.now())) {
    return renderError(res, 403, 'problem.notAllowedTitle', 'problem.formExpired');
  }
  const client = ctx.clients.get(clientId);
  if (
    ctx.data.user(userId) === undefined ||
    client === undefined ||
    !ctx.tokens.authorisedClients(userId).has(clientId)
  ) {
    return renderError(res, 404, 'problem.appNotFoundTitle', 'problem.appNotFound');
  }
  const requestDeletion = action === 'remove_and_delete';
  const result = await removeApp(ctx, client, userId, requestDeletion);
  setHtmlHeaders(res);
  renderPage(res, 'removed', {
    appName: client.name,
    back: `${PAGE}?user=${userId}`,
    lines: outcomeLines(client, result.deliveries, requestDeletion),
  });
}

/** A sentence of the outcome, said in the page's language; the app's own answer is shown as text. */
interface Line {
  say: Say;
  link?: { href: string; label: 'removed.status' };
}

/** What happened, in sentences; the app's status URL linked only when http(s). */
function outcomeLines(client: EmulatorClient, deliveries: CallbackDelivery[], requestDeletion: boolean): Line[] {
  const app = client.name;
  const lines: Line[] = [];
  const deauth = deliveries.find((d) => d.kind === 'deauthorize');
  if (deauth === undefined) lines.push({ say: { key: 'removed.noDeauthorize', values: { app } } });
  else if (deauth.ok)
    lines.push({ say: { key: 'removed.told', values: { app, status: String(deauth.status ?? '') } } });
  else lines.push({ say: { key: 'removed.notTold', values: { app, error: deauth.error ?? '' } } });
  if (requestDeletion) {
    const deletion = deliveries.find((d) => d.kind === 'data_deletion');
    if (deletion === undefined) {
      lines.push({ say: { key: 'removed.noDeletion', values: { app } } });
    } else if (deletion.ok && deletion.confirmationCode !== undefined) {
      const href =
        deletion.statusUrl !== undefined && /^https?:\/\//i.test(deletion.statusUrl) ? deletion.statusUrl : undefined;
      lines.push({
        say: { key: 'removed.confirmed', values: { app, confirmation: deletion.confirmationCode } },
        ...(href !== undefined ? { link: { href, label: 'removed.status' as const } } : {}),
      });
    } else {
      lines.push({
        say:
          deletion.error === undefined
            ? { key: 'removed.noAnswer', values: { app } }
            : { key: 'removed.notConfirmed', values: { app, error: deletion.error } },
      });
    }
  }
  lines.push({ say: { key: 'removed.accessEnded' } });
  return lines;
}
