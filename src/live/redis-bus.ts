import { z } from 'zod';
import { parseJson } from '../json';
import type { Logger } from '../log/logger';
import type { SharedRedis } from '../redis';
import { LocalPageEvents, type PageEvent, type PageEvents, type PageListener } from './bus';

/** Longest wait for Redis to take a PUBLISH before this instance tells its own tabs by itself. */
const PUBLISH_DEADLINE_MS = 250;

/** A post's or a comment's id: `{page id}_{post number}`, `{post number}_{n}`. */
const OBJECT_ID = z.string().regex(/^\d{1,32}_\d{1,32}$/);

const PageMessage = z.object({
  p: z.string().regex(/^\d{1,32}$/),
  at: z.number().int().nonnegative(),
  e: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('new-posts'),
      count: z.number().int().positive().max(10_000),
      postId: OBJECT_ID.optional(),
    }),
    z.object({ kind: z.literal('feed-changed') }),
    z.object({ kind: z.literal('new-comment'), postId: OBJECT_ID, commentId: OBJECT_ID.optional() }),
  ]),
});
/** A person the provider signed out, by their app-scoped id (as the session index keys them in the same Redis). */
const PersonMessage = z.object({ ended: z.string().regex(/^\d{1,32}$/) });
const Message = z.union([PageMessage, PersonMessage]);

/**
 * Page events between instances through Redis pub/sub: `publish` goes to one channel every instance
 * listens on, and each instance's subscriber hands the event (with the publisher's timestamp, the stream's
 * event id) to its own listeners and keeps it for `since`. A webhook received by instance 1 thus reaches tabs
 * open on instance 3. While Redis does not take the message, this instance still tells its own tabs.
 */
export class RedisPageEvents implements PageEvents {
  private readonly local: LocalPageEvents;
  /** Settles once the subscription is in place (or failed: then only this instance's tabs are told). */
  readonly ready: Promise<void>;
  private warned = 0;

  constructor(
    private readonly redis: SharedRedis,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.local = new LocalPageEvents((err) => logger.error({ err }, 'a live-update listener failed'), now);
    this.ready = redis
      .subscribe(channel, (message) => this.receive(message))
      .catch((err: unknown) => {
        logger.error({ err }, 'live updates: could not subscribe to Redis; only this instance’s tabs are told');
      });
  }

  publish(pageId: string, event: PageEvent): void {
    const at = this.now();
    const message = JSON.stringify({ p: pageId, at, e: event });
    this.redis.command(['PUBLISH', this.channel, message], PUBLISH_DEADLINE_MS).catch(() => {
      if (this.now() - this.warned > 10_000)
        this.logger.warn('live updates: Redis did not take an event; telling this instance’s tabs only');
      this.warned = this.now();
      this.local.deliver(pageId, event, at);
    });
  }

  endPerson(userId: string): void {
    // On the same channel as the page events: in order with them, on every instance this one included.
    this.redis.command(['PUBLISH', this.channel, JSON.stringify({ ended: userId })], PUBLISH_DEADLINE_MS).catch(() => {
      this.logger.warn('live updates: Redis did not take a removal; ending this instance’s streams only');
      this.local.endPerson(userId);
    });
  }

  onPersonEnded(listener: (userId: string) => void): void {
    this.local.onPersonEnded(listener);
  }

  subscribe(pageId: string, listener: PageListener): () => void {
    return this.local.subscribe(pageId, listener);
  }

  since(pageId: string, at: number): { at: number; event: PageEvent }[] {
    return this.local.since(pageId, at);
  }

  get watchedPages(): number {
    return this.local.watchedPages;
  }

  private receive(raw: string): void {
    const message = Message.safeParse(parseJson(raw));
    if (!message.success) {
      this.logger.warn('live updates: an unreadable message on the Redis channel; ignored');
      return;
    }
    const { data } = message;
    if ('ended' in data) this.local.endPerson(data.ended);
    else this.local.deliver(data.p, data.e, data.at);
  }
}
