/**
 * Removing an app from a person's settings, as the provider does it: the
 * person's tokens for that app stop working at once (190/458, so an app that
 * misses the callback still finds out on its next call), then the app is told
 * through its registered callbacks, deauthorize first and data deletion when
 * the person asked for it (package README, "Removing an app").
 */
import type { Context } from '../context';
import type { CallbackDelivery, EmulatorClient, RemoveAppResult } from '../types';
import { deliver } from './deliver';
import { callbackPayload, signedRequest } from './signed-request';

export async function removeApp(
  ctx: Context,
  client: EmulatorClient,
  userId: string,
  requestDeletion: boolean,
): Promise<RemoveAppResult> {
  const revoked = ctx.tokens.revokeApp(userId, client.clientId);
  const targets: Array<[CallbackDelivery['kind'], string | undefined]> = [
    ['deauthorize', client.deauthorizeUrl],
    ['data_deletion', requestDeletion ? client.dataDeletionUrl : undefined],
  ];
  const deliveries: CallbackDelivery[] = [];
  // One after the other, as separate events: the app sees the deauthorization before the deletion request.
  for (const [kind, url] of targets) {
    if (url === undefined) continue;
    const at = ctx.now();
    const delivery = await deliver({
      kind,
      clientId: client.clientId,
      userId,
      url,
      at,
      signedRequest: signedRequest(callbackPayload(userId, at), client.clientSecret),
      timeoutMs: ctx.callbackTimeoutMs,
    });
    ctx.callbacks.add(delivery);
    deliveries.push(delivery);
  }
  return { revoked, deliveries };
}
