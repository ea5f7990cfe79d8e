/**
 * The webhook and activity controls (README#webhooks, README#activity), in
 * process; `http.ts` mounts the same under `/__emulator/webhooks` and
 * `/__emulator/activity`. Inputs go through the schemas below on both sides.
 */
import { z } from 'zod';
import { checkWebhookUrl, type Context } from '../context';
import type { ActivityControls, NewComment, NewPost, WebhookSettings } from '../types';
import { describeZodError } from '../zod-message';

const digits = z.string().regex(/^\d+$/, 'must be a numeric id');
const postId = z.string().regex(/^\d+_\d+$/, 'must be a post id (<page id>_<number>)');

export const webhookSchema = z.strictObject({
  clientId: z.string().min(1).optional(),
  url: z.string().min(1).max(2000),
  verifyToken: z.string().max(500),
});
/** `DELETE /__emulator/webhooks?clientId=`: whose webhook (default the first registered app). */
export const webhookClientSchema = z.strictObject({ clientId: z.string().min(1).optional() });
/** `POST /__emulator/webhooks/redeliver`: an event delivery's id. */
export const redeliverSchema = z.strictObject({ id: z.string().min(1) });
export const newPostSchema = z
  .strictObject({
    pageId: digits,
    message: z.string().min(1).max(63_206).optional(),
    story: z.string().min(1).max(500).optional(),
  })
  .refine((p) => p.message !== undefined || p.story !== undefined, 'a post needs a message or a story');
export const editPostSchema = z.strictObject({ postId, message: z.string().min(1).max(63_206) });
export const removePostSchema = z.strictObject({ postId });
export const reactionsSchema = z.strictObject({
  postId,
  counts: z.record(
    z.string().regex(/^[a-z_]{1,20}$/, 'must be a reaction type such as like'),
    z.number().int().min(0).max(1_000_000),
  ),
});

export const newCommentSchema = z.strictObject({
  postId,
  message: z.string().min(1).max(8000),
  parentId: z
    .string()
    .regex(/^\d+_\d+$/, 'must be a comment id (<post number>_<number>)')
    .optional(),
  byPage: z.boolean().optional(),
});

function parse<T>(what: string, schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new Error(`${what}: ${describeZodError(result.error)}`);
  return result.data;
}

export function activityControls(ctx: Context): ActivityControls {
  const clientOf = (clientId: string | undefined): string => {
    // '' (or nothing over HTTP) means the first registered client, as for issueToken.
    const id = clientId === undefined || clientId === '' ? ctx.clients.keys().next().value : clientId;
    if (id === undefined || !ctx.clients.has(id)) throw new Error(`Unknown client ${clientId ?? ''}`);
    return id;
  };
  return {
    async setWebhook(clientId: string, settings: WebhookSettings | null): Promise<boolean> {
      const id = clientOf(clientId);
      if (settings === null) return ctx.webhooks.register(id, null);
      const { url, verifyToken } = parse('setWebhook', webhookSchema, settings);
      checkWebhookUrl(url, 'setWebhook: url');
      return ctx.webhooks.register(id, { url, verifyToken });
    },
    subscriptions(pageId: string) {
      return ctx.webhooks.subscribers(parse('subscriptions', digits, pageId));
    },
    webhookDeliveries() {
      return ctx.webhooks.deliveries();
    },
    redeliverWebhook(id: string): void {
      if (!ctx.webhooks.redeliver(id)) throw new Error(`Unknown event delivery ${id}`);
    },
    webhooksIdle(): Promise<void> {
      return ctx.webhooks.idle();
    },
    addPost(post: NewPost) {
      return ctx.activity.addPost(parse('addPost', newPostSchema, post));
    },
    editPost(id: string, message: string): void {
      const input = parse('editPost', editPostSchema, { postId: id, message });
      ctx.activity.editPost(input.postId, input.message);
    },
    removePost(id: string): void {
      ctx.activity.removePost(parse('removePost', removePostSchema, { postId: id }).postId);
    },
    setReactions(id: string, counts: Record<string, number>): void {
      const input = parse('setReactions', reactionsSchema, { postId: id, counts });
      ctx.activity.setReactions(input.postId, input.counts);
    },
    reactions(id: string) {
      return ctx.activity.reactions(parse('reactions', postId, id));
    },
    addComment(comment: NewComment) {
      return ctx.activity.addComment(parse('addComment', newCommentSchema, comment));
    },
  };
}
