import type { Comment, PostDetails } from '../graph/schemas';
import { REACTION_KINDS } from '../graph/schemas';
import type { MessageKey } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import { permissionWords } from '../words';
import type { CommentsRead } from './load-post';
import { formatTime, linkify, type Segment } from './view-text';
import { toPostView, type PostView } from './feed-view';
import { type ImageView } from './images';
import { COMMENTS_SCOPE } from '../graph/provider';
import type { PostManageView } from './post-manage-view';

/**
 * The post page shaped for people (docs/architecture.md#post-page): the post as the feed shows it, and what only
 * its own page shows — every photo of an album, a video that plays, reactions by kind, comments with replies.
 * Provider data is untrusted text throughout; the template only prints these strings, escaped. Our words are in
 * the request's language (docs/architecture.md#languages).
 */

export interface VideoView {
  /** The file, on an origin of FB_MEDIA_ORIGINS. */
  src: string;
  poster?: string;
  width: number;
  height: number;
  title: string;
}

export interface ReactionView {
  kind: string;
  /** "Like", "Love", …: the provider's names for them, in the page's language. */
  label: string;
  count: string;
}

export interface CommentView {
  id: string;
  author: string;
  /** Written by the Page itself: marked as the Page's. */
  byPage: boolean;
  timeIso?: string;
  timeText: string;
  lines: Segment[][];
  /** "3 likes", when any. */
  likes?: string;
  /** "2 replies" and the link that opens them, when any and not open. */
  repliesLink?: { text: string; href: string };
  /** The replies, when opened. */
  replies?: CommentView[];
  /** More replies than one page shows, on the provider. */
  moreReplies?: boolean;
  /** Hidden by the Page (`is_hidden`): what that means, in plain words. */
  hidden?: string;
  /** What this person may do with it, when anything. */
  actions?: CommentActionsView;
}

/** One form of the one write path (src/writes/path.ts): where it posts, its CSRF token and one-time key, what it asks. */
export interface WriteFormView {
  href: string;
  csrf: string;
  key: string;
  do: string;
  target: string;
  /** The button's words. */
  text: string;
}

/** A comment's actions, each offered only where its `can_*` fields and the person's tasks allow. */
export interface CommentActionsView {
  /** "Actions for the comment by …": the group's name for screen readers. */
  label: string;
  reply?: WriteFormView & { label: string };
  like?: WriteFormView;
  hide?: WriteFormView;
  remove?: WriteFormView & { confirm: string; yes: string };
}

/**
 * What the person may do on the post page (the route decides, from the session's grant and role, as values):
 * `engage`, reply and like as the Page; `moderate`, hide and delete; `key` makes each form's one-time key.
 */
export interface PostActions {
  href: string;
  csrf: string;
  key: () => string;
  pageName: string;
  engage: boolean;
  moderate: boolean;
  /** Why no controls are offered: a role without the task, or the permission not granted (with Ask again). */
  why?: { text: string; askAgain?: string };
}

export interface CommentsView {
  /** "12 comments", from the post's count (known even without the permission). */
  count?: string;
  /**
   * Why the comments are not shown, and the way to grant what they need: Ask again when the person declined,
   * or, when FB_SCOPES leaves the permission out, how whoever runs the site turns it on.
   */
  blocked?: { text: string; askAgain?: string; operator?: string };
  list: CommentView[];
  /** Our link to the next page of comments (the provider's cursor; its own link carries the token). */
  more?: string;
  /** Shown after the first page: the way back to the newest. */
  newest?: string;
  /** Failed or late: not shown, and the page's one line on what is missing says so. */
  missing?: true;
  /** Reply to the post as the Page. */
  replyForm?: WriteFormView & { label: string };
  /** One quiet line on what hiding and deleting mean, above the comments, for a person who may moderate. */
  note?: string;
  /** Why the comments come without controls (one line), and the way to allow them when that helps. */
  why?: { text: string; askAgain?: string };
}

export interface PostPageView {
  post: PostView;
  /** The page the post is on, for the way back. */
  pageHref: string;
  /** Every photo of an album, each at its own size; empty for a post without an album. */
  photos: ImageView[];
  video?: VideoView;
  /** The non-zero counts by kind, and the kinds not known, in the provider's order. */
  reactions: ReactionView[];
  comments: CommentsView;
  /** Edit and Delete for the post itself, or why not (./post-manage-view.ts), when anything. */
  manage?: PostManageView;
}

export interface PostPageOptions {
  images: (url: string | undefined) => string | undefined;
  media: (url: string | undefined) => string | undefined;
  /** Where the provider's web links lead (./view-text.ts `providerWeb`). */
  web?: (href: string) => string;
  pageId: string;
  /** Where this view stands: its own query, so links keep what is open. */
  after?: string | undefined;
  locale: Locale;
  /** The person may act: the view is then made for this request alone (its forms carry one-time keys). */
  actions?: PostActions | undefined;
  /** What the person may do with the post itself: the view is then made for this request alone. */
  manage?: PostManageView | undefined;
}

const REACTION_LABELS: Record<(typeof REACTION_KINDS)[number], MessageKey> = {
  like: 'post.reaction.like',
  love: 'post.reaction.love',
  care: 'post.reaction.care',
  haha: 'post.reaction.haha',
  wow: 'post.reaction.wow',
  sad: 'post.reaction.sad',
  angry: 'post.reaction.angry',
};

const PHOTO_BOX = { width: 720, height: 720 };
const VIDEO_BOX = { width: 720, height: 405 };

export function toPostPageView(post: PostDetails, comments: CommentsRead, options: PostPageOptions): PostPageView {
  const base = `/pages/${encodeURIComponent(options.pageId)}`;
  const self = `${base}/posts/${encodeURIComponent(post.id)}`;
  const { locale } = options;
  const view = toPostView(post, { images: options.images, locale, ...(options.web ? { web: options.web } : {}) });
  const first = post.attachments?.data.find((a) => a !== undefined);
  const album = first?.subattachments?.data ?? [];
  const photos = album.length > 1 ? albumPhotos(album, first?.title?.trim(), options.images, locale) : [];
  // The album's photos stand in for the first photo and its "+N".
  if (photos.length > 0) {
    delete view.picture;
    delete view.extra;
  }
  const page: PostPageView = {
    post: view,
    pageHref: base,
    photos,
    // A kind the provider did not count (null) is shown as unknown, never as 0; a kind with none is left out.
    reactions: REACTION_KINDS.flatMap((kind) => {
      const n = post.reactionsByKind[kind];
      const count = n === null ? locale.t('post.reaction.unknown') : n > 0 ? locale.number(n) : undefined;
      return count === undefined ? [] : [{ kind, label: locale.t(REACTION_LABELS[kind]), count }];
    }),
    comments: commentsView(post, comments, self, options.after, locale, options.actions),
    ...(options.manage ? { manage: options.manage } : {}),
  };
  const source = options.media(first?.media?.source);
  if (first?.type?.startsWith('video') && source !== undefined) {
    const image = first.media?.image;
    const poster = options.images(image?.src ?? post.full_picture);
    page.video = {
      src: source,
      ...(poster !== undefined ? { poster } : {}),
      width: image?.width ?? VIDEO_BOX.width,
      height: image?.height ?? VIDEO_BOX.height,
      title: first.title?.trim() || locale.t('post.videoTitle'),
    };
    // The video's poster is its still: not shown twice.
    delete view.picture;
  }
  return page;
}

type Sub = NonNullable<NonNullable<NonNullable<PostDetails['attachments']>['data'][number]>['subattachments']>['data'];

function albumPhotos(
  album: Sub,
  title: string | undefined,
  images: PostPageOptions['images'],
  locale: Locale,
): ImageView[] {
  return album.flatMap((photo, i) => {
    const image = photo.media?.image;
    const src = images(image?.src);
    if (src === undefined) return [];
    const known = image?.width !== undefined && image.height !== undefined;
    const named = photo.title?.trim();
    return [
      {
        src,
        width: known ? image.width! : PHOTO_BOX.width,
        height: known ? image.height! : PHOTO_BOX.height,
        alt: named
          ? locale.t('post.photoOfNamed', { n: i + 1, count: album.length, name: named })
          : title
            ? locale.t('post.photoOfAlbum', { n: i + 1, count: album.length, title })
            : locale.t('post.photoOf', { n: i + 1, count: album.length }),
        lazy: i > 0,
        cropped: !known,
      },
    ];
  });
}

function commentsView(
  post: PostDetails,
  read: CommentsRead,
  self: string,
  after: string | undefined,
  locale: Locale,
  actions: PostActions | undefined,
): CommentsView {
  const total = post.comments?.summary.total_count;
  const view: CommentsView = { list: [] };
  if (total !== undefined) view.count = locale.t('count.comments', { count: total });
  if ('notAsked' in read) {
    if (total)
      view.blocked = {
        text: locale.t('post.commentsNotAsked'),
        operator: locale.t('operator.addScope', { permission: COMMENTS_SCOPE }),
      };
    return view;
  }
  if ('refusal' in read) {
    if (total) view.blocked = blocked(self, locale);
    return view;
  }
  if ('missing' in read) {
    view.missing = true;
    return view;
  }
  if (actions?.why) view.why = actions.why;
  if (actions?.engage)
    view.replyForm = {
      ...form(actions, 'reply', post.id, locale.t('act.send')),
      label: locale.t('act.commentAs', { name: actions.pageName }),
    };
  if (actions?.moderate) view.note = locale.t('act.note');
  const open = read.replies;
  view.list = read.page.data.map((c) => {
    const comment = commentView(c, post, locale, actions);
    const n = c.comment_count ?? 0;
    if (open?.commentId === c.id) {
      comment.replies = open.page.data.map((r) => commentView(r, post, locale, actions));
      comment.moreReplies = open.page.after !== undefined;
    } else if (n > 0) {
      const query = after === undefined ? '' : `after=${encodeURIComponent(after)}&`;
      comment.repliesLink = {
        text: locale.t('post.replies', { count: n }),
        href: `${self}?${query}replies=${encodeURIComponent(c.id)}#comment-${c.id}`,
      };
    }
    return comment;
  });
  const next = read.page.after;
  if (next !== undefined) view.more = `${self}?after=${encodeURIComponent(next)}#comments`;
  if (after !== undefined) view.newest = `${self}#comments`;
  return view;
}

function commentView(c: Comment, post: PostDetails, locale: Locale, actions?: PostActions): CommentView {
  const time = formatTime(c.created_time, locale);
  const byPage = c.from !== undefined && c.from.id === post.id.split('_')[0];
  const view: CommentView = {
    id: c.id,
    // Without the Page's token the provider leaves out who wrote it.
    author: c.from?.name.trim() || locale.t(byPage ? 'post.thisPage' : 'post.somePerson'),
    byPage,
    timeIso: time.iso,
    timeText: time.text,
    lines: (c.message ?? '').split(/\r?\n/).map(linkify),
  };
  if (c.like_count) view.likes = locale.t('post.likes', { count: c.like_count });
  if (c.is_hidden === true) view.hidden = locale.t('act.hidden');
  if (actions) {
    const offered = commentActions(c, view.author, locale, actions);
    if (offered) view.actions = offered;
  }
  return view;
}

/** One form of the write path, with a fresh one-time key. */
function form(actions: PostActions, what: string, target: string, text: string): WriteFormView {
  return { href: actions.href, csrf: actions.csrf, key: actions.key(), do: what, target, text };
}

/**
 * What the person may do with one comment: each action only where the provider says it may be done (`can_*`,
 * `is_hidden`, `user_likes`; absent means not offered) and the person's tasks allow it (./comment-actions.ts).
 */
function commentActions(
  c: Comment,
  author: string,
  locale: Locale,
  actions: PostActions,
): CommentActionsView | undefined {
  const view: CommentActionsView = { label: locale.t('act.actionsFor', { author }) };
  if (actions.engage && c.can_comment === true)
    view.reply = {
      ...form(actions, 'reply', c.id, locale.t('act.send')),
      label: locale.t('act.replyAs', { name: actions.pageName }),
    };
  if (actions.engage && c.can_like === true)
    view.like =
      c.user_likes === true
        ? form(actions, 'unlike', c.id, locale.t('act.unlike'))
        : form(actions, 'like', c.id, locale.t('act.like'));
  if (actions.moderate && c.can_hide === true)
    view.hide =
      c.is_hidden === true
        ? form(actions, 'unhide', c.id, locale.t('act.unhide'))
        : form(actions, 'hide', c.id, locale.t('act.hide'));
  if (actions.moderate && c.can_remove === true)
    view.remove = {
      ...form(actions, 'delete', c.id, locale.t('act.delete')),
      confirm: locale.t('act.deleteConfirm'),
      yes: locale.t('act.deleteYes'),
    };
  return view.reply || view.like || view.hide || view.remove ? view : undefined;
}

function blocked(self: string, locale: Locale): CommentsView['blocked'] {
  return {
    text: locale.t('post.commentsBlocked', { permission: permissionWords(locale, 'pages_read_user_content') }),
    askAgain: `/auth/login?rerequest=1&return_to=${encodeURIComponent(self)}`,
  };
}
