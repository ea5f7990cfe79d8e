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
import { renderError, setHtmlHeaders } from '../dialog/html';
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
    if (knownHost(req.get('host'), ctx.port, ctx.clients.values())) return next();
    renderError(res, 403, 'Forbidden', 'The settings page answers only on the emulator’s own address.');
  });
  router.get(PAGE, (req, res) => {
    const user = req.query.user;
    if (user === undefined) return showPeople(ctx, res);
    if (typeof user !== 'string' || !ID_RE.test(user)) {
      return renderError(res, 400, 'Invalid request', 'The person must be given as a numeric id.');
    }
    const person = ctx.data.user(user);
    if (person === undefined) return renderError(res, 404, 'Page not found', 'No such person.');
    const now = ctx.now();
    const apps = [...ctx.tokens.authorisedClients(user)]
      .map(([clientId, since]) => ({ client: ctx.clients.get(clientId), since }))
      .filter((a): a is { client: EmulatorClient; since: number } => a.client !== undefined)
      .map(({ client, since }) => ({
        name: client.name,
        clientId: client.clientId,
        since: new Date(since).toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
        formToken: formToken(ctx.formKey, user, client.clientId, now),
      }));
    setHtmlHeaders(res);
    res.render('settings', { person: { id: person.id, name: person.name }, apps, people: [] });
  });
  router.post(REMOVE, express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 }), (req, res, next) => {
    remove(ctx, req, res).catch(next);
  });
  router.all([PAGE, REMOVE], (_req, res) => {
    renderError(res, 405, 'Method not allowed', 'The settings page is opened with GET and answered with its own form.');
  });
  return router;
}

function showPeople(ctx: Context, res: Response): void {
  setHtmlHeaders(res);
  res.render('settings', {
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
    return renderError(res, 400, 'Invalid request', 'Choose an app and press one of its buttons.');
  }
  if (crossSite(req) || typeof token !== 'string' || !formTokenValid(ctx.formKey, token, userId, clientId, ctx.now())) {
    return renderError(
      res,
      403,
      'Request not allowed',
      'This form has expired or came from elsewhere. Open the settings again.',
    );
  }
  const client = ctx.clients.get(clientId);
  if (
    ctx.data.user(userId) === undefined ||
    client === undefined ||
    !ctx.tokens.authorisedClients(userId).has(clientId)
  ) {
    return renderError(res, 404, 'App not found', 'This app is not in the person’s settings (any more).');
  }
  const requestDeletion = action === 'remove_and_delete';
  const result = await removeApp(ctx, client, userId, requestDeletion);
  setHtmlHeaders(res);
  res.render('removed', {
    appName: client.name,
    back: `${PAGE}?user=${userId}`,
    lines: outcomeLines(client, result.deliveries, requestDeletion),
  });
}

interface Line {
  text: string;
  link?: { href: string; label: string };
}

/** What happened, in sentences; the app's own answer is shown as text, its status URL linked only when http(s). */
function outcomeLines(client: EmulatorClient, deliveries: CallbackDelivery[], requestDeletion: boolean): Line[] {
  const name = client.name;
  const lines: Line[] = [];
  const deauth = deliveries.find((d) => d.kind === 'deauthorize');
  if (deauth === undefined) lines.push({ text: `${name} registered no deauthorize callback, so it was not told.` });
  else if (deauth.ok)
    lines.push({ text: `${name} was told: its deauthorize callback answered ${deauth.status ?? ''}.` });
  else lines.push({ text: `${name} did not take the news: its deauthorize callback failed (${deauth.error ?? ''}).` });
  if (requestDeletion) {
    const deletion = deliveries.find((d) => d.kind === 'data_deletion');
    if (deletion === undefined) {
      lines.push({ text: `${name} registered no data-deletion callback: ask the app itself to delete your data.` });
    } else if (deletion.ok && deletion.confirmationCode !== undefined) {
      const href =
        deletion.statusUrl !== undefined && /^https?:\/\//i.test(deletion.statusUrl) ? deletion.statusUrl : undefined;
      lines.push({
        text: `${name} confirmed deletion: code ${deletion.confirmationCode}`,
        ...(href !== undefined ? { link: { href, label: 'Deletion status' } } : {}),
      });
    } else {
      lines.push({ text: `${name} did not confirm deletion (${deletion.error ?? 'no answer'}).` });
    }
  }
  lines.push({
    text: `Its access ended at once: if it missed the news, its next call to the API gets error 190.`,
  });
  return lines;
}
