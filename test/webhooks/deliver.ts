import { createHmac } from 'node:crypto';
import type { Test } from 'supertest';
import { APP_SECRET } from '../support/stack';

/** A delivery as the provider sends it (docs/provider-interface.md#webhook-deliveries): the body and its signature. */
export function signed(body: unknown, secret = APP_SECRET): { raw: string; signature: string } {
  const raw = JSON.stringify(body);
  return { raw, signature: signatureOf(raw, secret) };
}

/** `X-Hub-Signature-256` of exactly these bytes. */
export function signatureOf(raw: string, secret = APP_SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}

/** One page entry with `feed` changes. */
export function feedDelivery(pageId: string, ...values: Record<string, unknown>[]) {
  return {
    object: 'page',
    entry: [{ id: pageId, time: 1_760_000_000, changes: values.map((value) => ({ field: 'feed', value })) }],
  };
}

/** Lets the work done after the 200 (setImmediate) run. */
export const afterAnswer = () => new Promise((resolve) => setTimeout(resolve, 20));

/** POSTs a signed delivery to the app at `base`, as the provider does; the app's answer. */
export function deliver(base: string, body: unknown): Promise<Response> {
  const { raw, signature } = signed(body);
  return fetch(`${base}/webhooks/facebook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
    body: raw,
  });
}

/** The same delivery through a supertest agent (an in-process stack): it must be taken, 200. */
export function deliverTo(agent: { post(path: string): Test }, body: unknown) {
  const { raw, signature } = signed(body);
  return agent
    .post('/webhooks/facebook')
    .set('content-type', 'application/json')
    .set('x-hub-signature-256', signature)
    .send(raw)
    .expect(200);
}
