/**
 * Publishing by the Page (docs/reference.md#publishing), as the Pages API Posts guide documents it
 * (https://developers.facebook.com/docs/pages-api/posts): `POST /{page-id}/feed` with `message` and `link`,
 * `published=false` with `scheduled_publish_time` (a Unix time, an ISO 8601 time, or a relative one such as
 * `+2 weeks`), `fields` for read-after-write; `POST /{page-id}/photos` with the file as multipart `source`
 * (the Page Photos reference); `POST /{post-id}` to edit the text, publish now (`is_published=true`) or
 * reschedule; `DELETE /{post-id}`; and the Page Scheduled Posts reference for what is waiting. A page token
 * with `pages_manage_posts` and a task that creates content. Every change goes through the page activity
 * (../activity.ts): served at once, told by the `feed` webhook, published on the emulator's clock.
 */
import { badParam, GraphError, unsupportedGet } from '../errors';
import { pictureOf, type Picture } from '../media/uploads';
import type { SeedPost } from '../seed';
import type { PageState } from '../store/data';
import type { Upload } from '../params';
import type { GraphCall } from './call';
import { parseFields, withId } from './fields';
import { POST, postValue } from './post';
import { project, validate } from './select';
import { booleanOf, requirePageWrite } from './writes';

export const POSTS_PERMISSION = 'pages_manage_posts';
/** Publishing, editing and deleting the Page's posts (the Getting Started guide names CREATE_CONTENT). */
export const PUBLISH_TASKS: readonly string[] = Object.freeze(['CREATE_CONTENT', 'MANAGE']);
/** The scheduling window: from 10 minutes to 30 days ahead (docs/reference.md#publishing). */
export const MIN_AHEAD_MS = 10 * 60_000;
export const MAX_AHEAD_MS = 30 * 86_400_000;
/** The provider's longest post text, in characters. */
const MAX_MESSAGE_LENGTH = 63_206;

/** `POST /{page-id}/feed` and `POST /{page-id}/photos`; any other write on a Page is 100/33. */
export function pageWrite(
  call: GraphCall,
  page: PageState,
  edge: string | undefined,
  method: 'post' | 'delete',
  upload: Upload | undefined,
): Record<string, unknown> {
  if (method === 'post' && edge === 'feed') return publishToFeed(call, page);
  if (method === 'post' && edge === 'photos') return publishPhoto(call, page, upload);
  throw unsupportedGet(edge === undefined ? page.id : `${page.id}/${edge}`, method);
}

/** A text or link post, now or later; `{ id }`, or with `fields` the new post as a read would answer it. */
function publishToFeed(call: GraphCall, page: PageState): Record<string, unknown> {
  requirePageWrite(call, page, POSTS_PERMISSION, PUBLISH_TASKS);
  const { message, link } = call.params;
  if ((message ?? '').trim() === '' && (link ?? '') === '') throw badParam('Missing message or attachment');
  const fields = readAfterWrite(call);
  const when = timingOf(call);
  const content: Omit<SeedPost, 'id' | 'created_time'> = {
    ...(message !== undefined && message !== '' ? { message: checkedMessage(message) } : {}),
    ...(link !== undefined && link !== '' ? { attachments: [linkPreview(link)] } : {}),
  };
  const { id } = call.ctx.activity.publish(page.id, content, when);
  return fields === undefined ? { id } : answerOf(call, page, id, fields);
}

/** A photo post from the uploaded `source`: `{ id: <photo id>, post_id }`. */
function publishPhoto(call: GraphCall, page: PageState, upload: Upload | undefined): Record<string, unknown> {
  requirePageWrite(call, page, POSTS_PERMISSION, PUBLISH_TASKS);
  if (upload === undefined) throw new GraphError({ code: 324, message: '(#324) Requires upload file' });
  const picture = pictureOf(upload.data);
  if (picture === undefined || picture.width < 1 || picture.height < 1) {
    throw new GraphError({ code: 324, message: '(#324) Missing or invalid image file' });
  }
  const message = call.params.message ?? call.params.caption;
  const when = timingOf(call);
  const path = call.ctx.uploads.put(picture, upload.data);
  const content: Omit<SeedPost, 'id' | 'created_time'> = {
    ...(message !== undefined && message !== '' ? { message: checkedMessage(message) } : {}),
    full_picture: path,
    attachments: [photoAttachment(path, picture)],
  };
  const { id } = call.ctx.activity.publish(page.id, content, when);
  // The photo's own id: the post's number, which the emulator never uses for anything else.
  return { id: id.split('_')[1], post_id: id };
}

/**
 * `POST /{post-id}`: `is_published=true` publishes a scheduled or unpublished post now, `scheduled_publish_time`
 * moves it (within the window), `message` edits its text; `DELETE /{post-id}` deletes it. `{ success: true }`.
 */
export function postWrite(
  call: GraphCall,
  page: PageState,
  post: SeedPost,
  method: 'post' | 'delete',
): Record<string, unknown> {
  requirePageWrite(call, page, POSTS_PERMISSION, PUBLISH_TASKS);
  const { activity } = call.ctx;
  if (method === 'delete') {
    activity.removePost(post.id);
    return { success: true };
  }
  const { is_published: isPublished, scheduled_publish_time: at, message } = call.params;
  if (isPublished === undefined && at === undefined && message === undefined) {
    throw badParam('The parameter message, is_published or scheduled_publish_time is required');
  }
  const published = page.feed.includes(post);
  if (at !== undefined && (published || isPublished === 'true')) throw scheduledOnPublished();
  // Every parameter is checked before anything changes.
  const time = at === undefined ? undefined : scheduledTime(call, at);
  const publishNow = isPublished === undefined ? false : booleanOf('is_published', isPublished);
  if (isPublished !== undefined && !publishNow && published) {
    throw badParam('A published post cannot be unpublished here');
  }
  const text = message === undefined ? undefined : checkedMessage(message);
  if (text !== undefined) activity.editPost(post.id, text);
  if (time !== undefined) activity.reschedule(post.id, time);
  if (publishNow && !published) activity.publishNow(post.id);
  return { success: true };
}

/**
 * Now (`published` absent or true), at `scheduled_publish_time` (epoch ms) with `published=false`, or unpublished
 * with no time (`null`). A time with a published post is refused, as the provider does.
 */
function timingOf(call: GraphCall): number | null | undefined {
  const { published, scheduled_publish_time: at } = call.params;
  const now = published === undefined ? true : booleanOf('published', published);
  if (at !== undefined && now) throw scheduledOnPublished();
  if (now) return undefined;
  return at === undefined ? null : scheduledTime(call, at);
}

const scheduledOnPublished = (): GraphError =>
  badParam('You cannot specify a scheduled publish time on a published post');

/** The time in one of the Posts guide's formats, within 10 minutes to 30 days from now; else the provider's 100. */
function scheduledTime(call: GraphCall, raw: string): number {
  const now = call.ctx.now();
  const at = parseTime(raw.trim(), now);
  if (at === undefined || at - now < MIN_AHEAD_MS || at - now > MAX_AHEAD_MS) {
    throw badParam('The specified scheduled publish time is invalid.');
  }
  return at;
}

const UNITS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 };

/** Unix seconds, ISO 8601 with a zone, or `+N minutes|hours|days|weeks` (strtotime's relative form). */
function parseTime(raw: string, now: number): number | undefined {
  if (/^\d{9,11}$/.test(raw)) return Number(raw) * 1000;
  const relative = /^\+(\d{1,4}) ?(minute|hour|day|week)s?$/i.exec(raw);
  if (relative !== null) return now + Number(relative[1]) * UNITS[relative[2]!.toLowerCase()]!;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:?\d{2})$/.test(raw)) return undefined;
  const ms = Date.parse(raw.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? undefined : ms;
}

/** `fields` on the write: checked before it, answered after it (the Posts guide's read-after-write). */
function readAfterWrite(call: GraphCall): ReturnType<typeof parseFields> | undefined {
  if (call.params.fields === undefined) return undefined;
  const fields = withId(parseFields(call.params.fields, ['id']));
  validate(fields, POST);
  return fields;
}

function answerOf(
  call: GraphCall,
  page: PageState,
  id: string,
  fields: ReturnType<typeof parseFields>,
): Record<string, unknown> {
  const post = page.feed.find((p) => p.id === id) ?? page.scheduled.find((p) => p.id === id)!;
  return project(call, postValue(call, page, post), fields, POST);
}

function checkedMessage(message: string): string {
  if (message.length > MAX_MESSAGE_LENGTH) {
    throw badParam(`Param message must be at most ${MAX_MESSAGE_LENGTH} characters long`);
  }
  return message;
}

/** The provider's preview of a shared link: its own title and description come from the page; here, its address. */
function linkPreview(raw: string): NonNullable<SeedPost['attachments']>[number] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badParam('Param link must be a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badParam('Param link must be a valid URL');
  return { type: 'share', title: url.hostname, description: url.href, url: url.href, target: { url: url.href } };
}

function photoAttachment(path: string, picture: Picture): NonNullable<SeedPost['attachments']>[number] {
  return { type: 'photo', media: { image: { src: path, width: picture.width, height: picture.height } } };
}
