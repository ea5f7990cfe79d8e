/**
 * Page activity: the test controls that add, edit and remove posts and change
 * reaction counts — changing what the Graph API serves — and the `feed`
 * webhook change each one causes (Page webhooks reference, `feed` field:
 * `item` `status` or `reaction`, `verb` `add`/`edited`/`remove`). Also the
 * demo's generator, which posts now and then (README#activity).
 */
import type { SeedComment, SeedPost } from './seed';
import { authorOf, findComment, findPost, type DataStore } from './store/data';
import { Timers } from './timers';
import { providerTime } from './graph/insights-series';
import type { NewComment, NewPost } from './types';
import type { FeedChangeValue } from './webhooks/payload';
import type { Webhooks } from './webhooks/webhooks';

/** The person whose reactions the controls simulate (the provider names the reacting user in `from`). */
const VISITOR = Object.freeze({ id: '100000000000099', name: 'Visiting Reader' });
/** At most this many reaction changes (one webhook change each) per `setReactions` call. */
const MAX_REACTION_STEPS = 100;
const GENERATED = [
  'Fresh out of the oven: a new batch just landed on the counter.',
  'Quiet afternoon — come by for a coffee and a chat.',
  'We just restocked the shelves. See you soon!',
  'Thank you for stopping by today ❤️',
  'New on the menu today: something warm and something sweet.',
];

export class Activity {
  private sequence = 0;
  private generator: NodeJS.Timeout | undefined;
  private generated = 0;
  /** The timer that publishes the next scheduled post. */
  private readonly schedule = new Timers();

  constructor(
    private readonly data: DataStore,
    private readonly webhooks: Webhooks,
    private readonly now: () => number,
  ) {}

  addPost(post: NewPost): { id: string } {
    if (post.message === undefined && post.story === undefined) throw new Error('A post needs a message or a story');
    const { pageId, message, story } = post;
    return this.publish(pageId, {
      ...(message !== undefined ? { message } : {}),
      ...(story !== undefined ? { story } : {}),
    });
  }

  /**
   * A new post by the Page: first in its feed now, or kept apart until `scheduledAt` (epoch ms; `null`: an
   * unpublished post with no time). A `status` change with `published` 1 or 0 (docs/reference.md#publishing).
   */
  publish(pageId: string, content: Omit<SeedPost, 'id' | 'created_time'>, scheduledAt?: number | null): { id: string } {
    const page = this.data.page(pageId);
    if (page === undefined) throw new Error(`Unknown page ${pageId}`);
    this.sequence += 1;
    // Above every seeded post number, so ids keep growing with time as the provider's do.
    const id = `${page.id}_${String(910_000_000_000 + this.sequence)}`;
    const created = this.now();
    const post: SeedPost = { id, created_time: providerTime(created), ...content };
    const later = scheduledAt !== undefined;
    if (later) {
      if (scheduledAt !== null) post.scheduled_publish_time = Math.floor(scheduledAt / 1000);
      page.scheduled.push(post);
      this.arm();
    } else page.feed.unshift(post);
    this.statusChange(page.id, 'add', id, created, {
      published: later ? 0 : 1,
      ...(post.message !== undefined ? { message: post.message } : {}),
    });
    return { id };
  }

  /** A scheduled or unpublished post goes live now: first in the feed, `created_time` now, a `status` `add`. */
  publishNow(postId: string): void {
    const { pageId, post, published } = this.find(postId);
    if (published) return;
    const page = this.data.page(pageId)!;
    page.scheduled = page.scheduled.filter((p) => p.id !== postId);
    delete post.scheduled_publish_time;
    const now = this.now();
    post.created_time = providerTime(now);
    page.feed.unshift(post);
    this.statusChange(pageId, 'add', postId, now, {
      published: 1,
      ...(post.message !== undefined ? { message: post.message } : {}),
    });
    this.arm();
  }

  /** A scheduled post's new time (epoch ms): an `edited` change, `published: 0`. */
  reschedule(postId: string, atMs: number): void {
    const { pageId, post, published } = this.find(postId);
    if (published) throw new Error(`Post ${postId} is published`);
    post.scheduled_publish_time = Math.floor(atMs / 1000);
    this.statusChange(pageId, 'edited', postId, this.now(), {
      published: 0,
      ...(post.message !== undefined ? { message: post.message } : {}),
    });
    this.arm();
  }

  editPost(postId: string, message: string): void {
    const { pageId, post, published } = this.find(postId);
    post.message = message;
    this.statusChange(pageId, 'edited', postId, this.now(), { published: published ? 1 : 0, message });
  }

  removePost(postId: string): void {
    const { pageId } = this.find(postId);
    const page = this.data.page(pageId)!;
    page.feed = page.feed.filter((p) => p.id !== postId);
    page.scheduled = page.scheduled.filter((p) => p.id !== postId);
    this.statusChange(pageId, 'remove', postId, this.now(), { recipient_id: pageId });
  }

  /**
   * Publishes every scheduled post whose time has come, oldest first, on the emulator's clock (`now`): called
   * before each Graph call (so a test clock moved forward publishes at the next call) and by a timer for the
   * earliest time (so a running emulator publishes on its own and sends the webhook), and when a test moves the
   * clock. Returns the ids it published.
   */
  publishDue(): string[] {
    const nowSec = this.now() / 1000;
    const due = this.data
      .allPages()
      .flatMap((page) => page.scheduled)
      .filter((p) => p.scheduled_publish_time !== undefined && p.scheduled_publish_time <= nowSec)
      .sort((a, b) => (a.scheduled_publish_time ?? 0) - (b.scheduled_publish_time ?? 0));
    for (const post of due) this.publishNow(post.id);
    return due.map((post) => post.id);
  }

  /** One timer, for the earliest scheduled time; none when nothing is scheduled. */
  arm(): void {
    this.schedule.clear();
    const times = this.data
      .allPages()
      .flatMap((page) => page.scheduled)
      .flatMap((p) => (p.scheduled_publish_time === undefined ? [] : [p.scheduled_publish_time * 1000]));
    if (times.length === 0) return;
    const wait = Math.min(Math.max(0, Math.min(...times) - this.now()), 2 ** 31 - 1);
    this.schedule.after(wait, () => this.publishDue());
  }

  /** Kept on the post itself, so the Graph API's `reactions` edge serves them and `reset` restores the seed's. */
  reactions(postId: string): Record<string, number> {
    return { ...(this.find(postId).post.reactions ?? {}) };
  }

  setReactions(postId: string, counts: Record<string, number>): void {
    const { pageId, post } = this.find(postId);
    const current = post.reactions ?? {};
    const steps: { type: string; verb: 'add' | 'remove' }[] = [];
    for (const [type, count] of Object.entries(counts)) {
      const delta = count - (current[type] ?? 0);
      for (let i = 0; i < Math.abs(delta) && steps.length < MAX_REACTION_STEPS; i++) {
        steps.push({ type, verb: delta > 0 ? 'add' : 'remove' });
      }
    }
    const next = { ...current, ...counts };
    for (const [type, count] of Object.entries(next)) if (count === 0) delete next[type];
    post.reactions = next;
    const time = Math.floor(this.now() / 1000);
    for (const step of steps) {
      this.feedChange(pageId, {
        from: { ...VISITOR },
        item: 'reaction',
        verb: step.verb,
        post_id: postId,
        parent_id: postId,
        reaction_type: step.type,
        created_time: time,
      });
    }
  }

  /**
   * A visitor's comment (or the Page's, `byPage`), or a reply to one (`parentId`): kept on the post, so the
   * `comments` edges serve it, and told as the provider does (`item: "comment"`, `verb: "add"`, `comment_id`,
   * `parent_id`: the post for a comment, the comment for a reply).
   */
  addComment(comment: NewComment): { id: string } {
    const { pageId, post } = this.find(comment.postId);
    const list = (post.comments ??= []);
    const parent = comment.parentId === undefined ? undefined : list.find((c) => c.id === comment.parentId);
    if (comment.parentId !== undefined && parent === undefined) throw new Error(`Unknown comment ${comment.parentId}`);
    this.sequence += 1;
    const id = `${post.id.split('_')[1] ?? ''}_${String(920_000_000 + this.sequence)}`;
    const created = this.now();
    const from = comment.byPage === true ? this.fromPage(pageId).from : { ...VISITOR };
    const added = { id, created_time: providerTime(created), message: comment.message, from };
    if (parent !== undefined) (parent.replies ??= []).push(added);
    else list.push(added);
    this.feedChange(pageId, {
      from,
      item: 'comment',
      verb: 'add',
      post_id: post.id,
      comment_id: id,
      parent_id: parent?.id ?? post.id,
      message: comment.message,
      created_time: Math.floor(created / 1000),
    });
    return { id };
  }

  /**
   * The Page likes a comment, or no longer does (`/{comment-id}/likes`): `like_count` and the Page's `user_likes`
   * change once, and a `reaction` change names the comment (docs/reference.md#comment-moderation). Returns whether
   * anything changed.
   */
  setCommentLiked(pageId: string, commentId: string, liked: boolean): boolean {
    const { post, comment } = this.comment(pageId, commentId);
    if ((comment.page_likes === true) === liked) return false;
    comment.page_likes = liked;
    comment.like_count = Math.max(0, (comment.like_count ?? 0) + (liked ? 1 : -1));
    this.feedChange(pageId, {
      ...this.fromPage(pageId),
      item: 'reaction',
      verb: liked ? 'add' : 'remove',
      post_id: post.id,
      comment_id: comment.id,
      parent_id: comment.id,
      reaction_type: 'like',
      created_time: Math.floor(this.now() / 1000),
    });
    return true;
  }

  /** Hides a comment or shows it again (`is_hidden`): a `comment` change with verb `hide` or `unhide`. */
  setCommentHidden(pageId: string, commentId: string, hidden: boolean): boolean {
    const { post, comment, parent } = this.comment(pageId, commentId);
    if ((comment.is_hidden === true) === hidden) return false;
    comment.is_hidden = hidden;
    this.commentChange(pageId, post, comment, parent, hidden ? 'hide' : 'unhide', true);
    return true;
  }

  /** The Page's own comment with a new text: verb `edited`. */
  editComment(pageId: string, commentId: string, message: string): void {
    const { post, comment, parent } = this.comment(pageId, commentId);
    comment.message = message;
    this.commentChange(pageId, post, comment, parent, 'edited', true);
  }

  /** Deletes a comment (with its replies, as the provider does for a thread): verb `remove`. */
  removeComment(pageId: string, commentId: string): void {
    const { post, comment, parent } = this.comment(pageId, commentId);
    if (parent !== undefined) parent.replies = (parent.replies ?? []).filter((r) => r.id !== commentId);
    else post.comments = (post.comments ?? []).filter((c) => c.id !== commentId);
    this.commentChange(pageId, post, comment, parent, 'remove', false);
  }

  /** Posts every `intervalMs` on a page some app subscribed to (any page when none is), up to `maxPosts`. */
  start(intervalMs: number, maxPosts: number): void {
    this.stop();
    this.generator = setInterval(() => {
      if (this.generated >= maxPosts) return this.stop();
      const pages = this.data.allPages();
      const watched = pages.filter((p) => this.webhooks.subscribers(p.id).length > 0);
      const pool = watched.length > 0 ? watched : pages;
      const page = pool[this.generated % Math.max(pool.length, 1)];
      if (page === undefined) return;
      this.addPost({ pageId: page.id, message: GENERATED[this.generated % GENERATED.length]! });
      this.generated += 1;
    }, intervalMs);
    this.generator.unref();
  }

  get running(): boolean {
    return this.generator !== undefined;
  }

  stop(): void {
    if (this.generator !== undefined) clearInterval(this.generator);
    this.generator = undefined;
    this.schedule.clear();
  }

  private find(postId: string): { pageId: string; post: SeedPost; published: boolean } {
    const pageId = postId.split('_')[0] ?? '';
    const page = this.data.page(pageId);
    const post = page === undefined ? undefined : findPost(page, postId);
    if (page === undefined || post === undefined) throw new Error(`Unknown post ${postId}`);
    return { pageId, post, published: page.feed.includes(post) };
  }

  private comment(pageId: string, commentId: string): NonNullable<ReturnType<typeof findComment>> {
    const page = this.data.page(pageId);
    const found = page === undefined ? undefined : findComment(page, commentId);
    if (found === undefined) throw new Error(`Unknown comment ${commentId}`);
    return found;
  }

  /** A change to a comment, told with its author as `from`, like the `add` the author's comment caused. */
  private commentChange(
    pageId: string,
    post: SeedPost,
    comment: SeedComment,
    parent: SeedComment | undefined,
    verb: FeedChangeValue['verb'],
    withMessage: boolean,
  ): void {
    this.feedChange(pageId, {
      from: { ...authorOf(comment) },
      item: 'comment',
      verb,
      post_id: post.id,
      comment_id: comment.id,
      parent_id: parent?.id ?? post.id,
      ...(withMessage ? { message: comment.message } : {}),
      created_time: Math.floor(this.now() / 1000),
    });
  }

  private fromPage(pageId: string): { from: { id: string; name: string } } {
    const name = this.data.page(pageId)?.fields.get('name');
    return { from: { id: pageId, name: typeof name === 'string' ? name : '' } };
  }

  /** A change to one of the Page's own posts (`item: "status"`), from the Page. */
  private statusChange(
    pageId: string,
    verb: FeedChangeValue['verb'],
    postId: string,
    atMs: number,
    details: Pick<FeedChangeValue, 'published' | 'message' | 'recipient_id'>,
  ): void {
    this.feedChange(pageId, {
      ...this.fromPage(pageId),
      item: 'status',
      verb,
      post_id: postId,
      created_time: Math.floor(atMs / 1000),
      ...details,
    });
  }

  private feedChange(pageId: string, value: FeedChangeValue): void {
    this.webhooks.notify(pageId, 'feed', value);
  }
}
