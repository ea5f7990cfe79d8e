/**
 * The webhook and activity controls over HTTP (`/__emulator/webhooks/*`, `/__emulator/activity/*`): their
 * handlers, mounted by `http.ts` from the route table (`routes.ts`) behind the same guard as every other control.
 */
import type { EmulatorControls } from '../types';
import type { ControlHandlers } from './routes';

type ActivityIds =
  | 'setWebhook'
  | 'removeWebhook'
  | 'webhookDeliveries'
  | 'redeliverWebhook'
  | 'subscriptions'
  | 'addPost'
  | 'editPost'
  | 'removePost'
  | 'setReactions'
  | 'addComment';

export function activityHandlers(controls: EmulatorControls): Pick<ControlHandlers, ActivityIds> {
  return {
    setWebhook: async ({ body: { clientId, url, verifyToken } }) => ({
      verified: await controls.setWebhook(clientId ?? '', { url, verifyToken }),
    }),
    removeWebhook: async ({ query }) => {
      await controls.setWebhook(query.clientId ?? '', null);
    },
    webhookDeliveries: () => ({ data: controls.webhookDeliveries() }),
    redeliverWebhook: ({ body }) => controls.redeliverWebhook(body.id),
    subscriptions: ({ params }) => ({ data: controls.subscriptions(String(params.pageId)) }),
    addPost: ({ body }) => controls.addPost(body),
    editPost: ({ body }) => controls.editPost(body.postId, body.message),
    removePost: ({ body }) => controls.removePost(body.postId),
    setReactions: ({ body }) => {
      controls.setReactions(body.postId, body.counts);
      return { counts: controls.reactions(body.postId) };
    },
    addComment: ({ body }) => controls.addComment(body),
  };
}
