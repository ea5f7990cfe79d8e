/**
 * What a webhook delivery carries, as the provider sends it ("Webhooks — Get
 * Started", "Webhooks for Pages", the Page webhooks reference, `feed` field):
 * `{"object":"page","entry":[{"id","time","changes":[{"field":"feed","value":{…}}]}]}`,
 * signed in `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body keyed by the app secret>` and,
 * as the provider still sends it beside that, `X-Hub-Signature: sha1=<hex HMAC-SHA1>`.
 *
 * Quirk reproduced: the provider signs (and sends) an *escaped* form of the
 * JSON: every non-ASCII character as `\uXXXX` with lowercase hex digits, and
 * `/` as `\/`. A receiver that re-serialises the parsed body before checking
 * the signature gets a different HMAC; it must hash the raw bytes.
 */
import { createHmac } from 'node:crypto';

/** One `feed` change value (the fields the Page webhooks reference lists for posts, reactions and comments). */
export interface FeedChangeValue {
  from: { id: string; name: string };
  item: 'status' | 'reaction' | 'comment';
  /** `hide`/`unhide`: a comment the Page hid or showed again (public reports, docs/reference.md#comment-moderation). */
  verb: 'add' | 'edited' | 'remove' | 'hide' | 'unhide';
  post_id: string;
  /** Unix seconds, an int as in the reference. */
  created_time: number;
  published?: 0 | 1;
  message?: string;
  parent_id?: string;
  /** A comment's own id (`item: "comment"`). */
  comment_id?: string;
  reaction_type?: string;
  recipient_id?: string;
}

export interface WebhookChange {
  field: string;
  value: unknown;
}

export interface WebhookEntry {
  id: string;
  /** Unix seconds. */
  time: number;
  changes: WebhookChange[];
}

export interface WebhookPayload {
  object: 'page';
  entry: WebhookEntry[];
}

/** JSON with non-ASCII as lowercase `\uXXXX` (UTF-16 units) and `/` as `\/`, as the provider sends it. */
export function providerJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff/]/g, (ch) =>
    ch === '/' ? '\\/' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The header value: `sha256=` (or `sha1=`) and the lowercase hex HMAC of the raw body, keyed by the app secret. */
export function signatureOf(body: string, appSecret: string, algorithm: 'sha256' | 'sha1' = 'sha256'): string {
  return `${algorithm}=${createHmac(algorithm, appSecret).update(body, 'utf8').digest('hex')}`;
}
