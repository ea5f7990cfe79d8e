/**
 * Graph calls made with an app access token (docs/specification.md#app-tokens).
 * The app may manage its own webhook subscriptions (`/{app-id}/subscriptions`,
 * Graph API reference "Application Subscriptions"; Webhooks "Getting
 * Started"); there is no person behind it, so `/me` is refused (2500), and a
 * Page's content needs a page token (#10, and #210 for `subscribed_apps`).
 */
import type { Context } from '../context';
import { badParam, GraphError, unsupportedGet } from '../errors';
import { appOfToken, noCurrentUser } from '../token/app-token';
import type { EmulatorClient } from '../types';
import { engagementRequired } from './page';
import { pageTokenRequired, parseFields } from './subscribed-apps';

export interface AppCall {
  ctx: Context;
  client: EmulatorClient;
  method: string;
  params: Record<string, string>;
  /** The version the call ran at: what a subscription records. */
  version: string;
}

/** The answer to a call with an app token (190 first when the token does not prove the app). */
export async function appCall(
  call: Omit<AppCall, 'client'>,
  token: string,
  segments: readonly string[],
): Promise<unknown> {
  const { ctx } = call;
  const client = appOfToken(ctx, token);
  const [nodeId = '', edge, ...rest] = segments;
  if (nodeId === 'me') throw noCurrentUser();
  if (rest.length === 0 && edge === 'subscriptions' && ctx.clients.has(nodeId)) {
    // Another app's subscriptions are not this app's to read: answered as if they did not exist.
    if (nodeId !== client.clientId) throw unsupportedGet(nodeId, call.method);
    return subscriptions({ ...call, client });
  }
  if (ctx.data.page(nodeId) !== undefined || /^\d+_\d+$/.test(nodeId)) {
    if (edge === 'subscribed_apps') throw pageTokenRequired();
    throw engagementRequired();
  }
  throw unsupportedGet(nodeId, call.method);
}

async function subscriptions(call: AppCall): Promise<unknown> {
  const { ctx, client, method, params } = call;
  if (method === 'get') {
    const settings = ctx.webhooks.settingsOf(client.clientId);
    if (settings === undefined) return { data: [] };
    const fields = (settings.fields ?? ['feed']).map((name) => ({ name, version: call.version }));
    return { data: [{ object: 'page', callback_url: settings.url, active: true, fields }] };
  }
  if (method === 'delete') {
    await ctx.webhooks.register(client.clientId, null);
    return { success: true };
  }
  if (method !== 'post') throw badParam(`Unsupported ${method} request`);
  // Only Page webhooks are emulated: the other objects (user, permissions, instagram…) are refused.
  if (params.object !== 'page') throw badParam('Param object must be one of {page}');
  const url = params.callback_url;
  if (url === undefined || !/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) {
    throw badParam('Param callback_url must be a valid URL');
  }
  const verifyToken = params.verify_token;
  if (verifyToken === undefined || verifyToken === '') throw badParam('The parameter verify_token is required.');
  const fields = parseFields(params.fields, 'fields');
  const ok = await ctx.webhooks.register(client.clientId, { url, verifyToken, fields });
  if (!ok) {
    throw new GraphError({
      code: 2200,
      message: "(#2200) Callback verification failed with the following errors: The URL couldn't be validated.",
    });
  }
  return { success: true };
}
