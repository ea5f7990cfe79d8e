/**
 * `/__emulator/webhooks/*` and `/__emulator/activity/*`: the webhook and
 * activity controls over HTTP, behind the same loopback-Host and JSON-only
 * guard as every other control (mounted by `http.ts`).
 */
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { EmulatorControls } from '../types';
import {
  editPostSchema,
  newCommentSchema,
  newPostSchema,
  reactionsSchema,
  removePostSchema,
  webhookSchema,
} from './activity';

export function activityRouter(controls: EmulatorControls): Router {
  const router = Router();
  const body = (req: Request): unknown => (req.body === undefined ? {} : req.body);

  router.post('/webhooks', async (req, res) => {
    const { clientId, url, verifyToken } = webhookSchema.parse(body(req));
    const verified = await controls.setWebhook(clientId ?? '', { url, verifyToken });
    res.json({ verified });
  });
  router.delete('/webhooks', async (req, res) => {
    const { clientId } = z.strictObject({ clientId: z.string().min(1).optional() }).parse(req.query);
    await controls.setWebhook(clientId ?? '', null);
    res.status(204).end();
  });
  router.get('/webhooks/deliveries', (_req, res) => {
    res.json({ data: controls.webhookDeliveries() });
  });
  router.post('/webhooks/redeliver', (req, res) => {
    controls.redeliverWebhook(z.strictObject({ id: z.string().min(1) }).parse(body(req)).id);
    res.status(204).end();
  });
  router.get('/webhooks/subscriptions/:pageId', (req, res) => {
    res.json({ data: controls.subscriptions(String(req.params.pageId)) });
  });
  router.post('/activity/posts', (req, res) => {
    res.status(201).json(controls.addPost(newPostSchema.parse(body(req))));
  });
  router.post('/activity/edit', (req, res) => {
    const { postId, message } = editPostSchema.parse(body(req));
    controls.editPost(postId, message);
    res.status(204).end();
  });
  router.post('/activity/remove', (req, res) => {
    controls.removePost(removePostSchema.parse(body(req)).postId);
    res.status(204).end();
  });
  router.post('/activity/reactions', (req, res) => {
    const { postId, counts } = reactionsSchema.parse(body(req));
    controls.setReactions(postId, counts);
    res.json({ counts: controls.reactions(postId) });
  });
  router.post('/activity/comments', (req, res) => {
    res.status(201).json(controls.addComment(newCommentSchema.parse(body(req))));
  });
  return router;
}
