import type { FeedResponse, Post } from '../graph/schemas';
import { englishLocale } from '../i18n/catalogs';
import { image, imageFilter, type ImageView } from './images';
import { formatTime, httpHref, linkDomain, linkify, splitLong, type Segment, type ViewOptions } from './view-text';

/**
 * A feed shaped for people (docs/architecture.md#views): its posts, each with its text, picture or link
 * preview and counts, and our own links to the older and newer pages. The templates only print these strings,
 * escaped.
 */

export interface LinkPreview {
  href?: string;
  title: string;
  domain?: string;
  image?: ImageView;
}

export interface PostView {
  id: string;
  /** Paragraphs, each a list of segments; `more` is the rest of a long text, behind "See more". */
  lines: Segment[][];
  more?: Segment[][];
  /** What happened, in the provider's words ("… updated their cover photo."), above the message if any. */
  story?: string;
  /** Only a story, no message of its own. */
  isStory: boolean;
  timeIso?: string;
  timeText: string;
  picture?: ImageView;
  /** "+3" on an album: the photos beyond the first. */
  extra?: string;
  preview?: LinkPreview;
  /** "12 reactions", "3 comments", "1 share": the non-zero counts. */
  counts: string[];
  permalink?: string;
  /** The post's own page here (its counts and "+N" lead there); only for the Page's own post ids. */
  href?: string;
}

export interface FeedView {
  posts: PostView[];
  /** Cursors for our own /feed links; the provider's next/previous URLs are never used (they carry the token). */
  after?: string;
  before?: string;
  /** Our links to the older and newer pages; "newer" from the second page is the page view itself. */
  older?: string;
  newer?: string;
  /** "Posts 26–50", when the position is known. */
  position?: string;
  /** The provider has nothing older: this page ends with the Page's first post. */
  end: boolean;
}

/** Posts per feed call (the `limit` the client asks for). */
export const FEED_PAGE_SIZE = 25;
const NO_IMAGES = imageFilter([]);

type Attachment = NonNullable<NonNullable<Post['attachments']>['data'][number]>;

const POST_BOX = { width: 720, height: 540 };
const PREVIEW_BOX = { width: 1200, height: 630 };

export function toPostView(post: Post, options: ViewOptions = {}): PostView {
  const images = options.images ?? NO_IMAGES;
  const locale = options.locale ?? englishLocale();
  const story = post.story?.trim() || undefined;
  const time = formatTime(post.created_time, locale);
  // A story-only post has no message: its story is its whole text, and no empty paragraph follows it.
  const paragraphs = post.message === undefined ? [] : post.message.split(/\r?\n/);
  const long = splitLong(paragraphs);
  const first = post.attachments?.data.find((a): a is Attachment => a !== undefined);
  const view: PostView = {
    id: post.id,
    lines: (long ? long.head : paragraphs).map(linkify),
    isStory: post.message === undefined && story !== undefined,
    timeIso: time.iso,
    timeText: time.text,
    counts: [
      post.reactions?.summary.total_count
        ? locale.t('count.reactions', { count: post.reactions.summary.total_count })
        : '',
      post.comments?.summary.total_count
        ? locale.t('count.comments', { count: post.comments.summary.total_count })
        : '',
      post.shares?.count ? locale.t('count.shares', { count: post.shares.count }) : '',
    ].filter(Boolean),
  };
  if (long) view.more = long.rest.map(linkify);
  if (story) view.story = story;
  const permalink = httpHref(post.permalink_url);
  if (permalink) view.permalink = options.web ? options.web(permalink) : permalink;
  const media = first?.media?.image;
  if (first?.type === 'share') {
    const title = first.title?.trim() || linkDomain(first.url) || locale.t('post.sharedLink');
    const preview: LinkPreview = { title };
    const href = httpHref(first.url);
    if (href) preview.href = href;
    const domain = linkDomain(first.url);
    if (domain) preview.domain = domain;
    // Decorative: the title beside it names the link.
    const picture = image(media?.src ?? post.full_picture, media, '', true, images, PREVIEW_BOX);
    if (picture) preview.image = picture;
    view.preview = preview;
    return view;
  }
  const photos = first?.subattachments?.data.length ?? 0;
  const album = photos > 1;
  const title = first?.title?.trim();
  const alt = album
    ? title
      ? locale.t('post.albumAltTitled', { count: photos, title })
      : locale.t('post.albumAlt', { count: photos })
    : title
      ? locale.t('post.titledAlt', { title })
      : locale.t(first?.type === 'video' ? 'post.videoAlt' : 'post.photoAlt');
  const picture = image(post.full_picture ?? media?.src, media, alt, true, images, POST_BOX);
  if (picture) {
    view.picture = picture;
    if (album) view.extra = locale.t('post.morePhotos', { count: photos - 1 });
  }
  return view;
}

/**
 * `where`: the page view shows the first (newest) posts, `/feed` an older or newer page. The provider's first
 * page can carry `previous` too, so "Newer posts" is offered only away from the first page; "Older posts"
 * exactly when the provider sent `next`, even after an empty page (docs/provider-interface.md#feed-paging).
 * With `pageId`, our own links are made too, carrying the position (`offset`); "Newer posts" from the second
 * page goes to the page view.
 */
export function toFeedView(
  feed: FeedResponse,
  where: 'first' | 'older',
  options: ViewOptions & { pageId?: string } = {},
): FeedView {
  const cursors = feed.paging?.cursors;
  const offset = where === 'first' ? 0 : options.offset;
  const base = options.pageId === undefined ? undefined : `/pages/${encodeURIComponent(options.pageId)}`;
  const posts = feed.data.map((p) => {
    const view = toPostView(p, options);
    if (base !== undefined && p.id.startsWith(`${options.pageId}_`))
      view.href = `${base}/posts/${encodeURIComponent(p.id)}`;
    return view;
  });
  const view: FeedView = {
    posts,
    // A cursor alone does not mean there is more: the provider says so with next/previous.
    after: feed.paging?.next ? cursors?.after : undefined,
    before: where === 'older' && feed.paging?.previous ? cursors?.before : undefined,
    end: !feed.paging?.next && posts.length > 0,
  };
  if (offset !== undefined && posts.length > 0)
    view.position = (options.locale ?? englishLocale()).t('feed.position', {
      from: offset + 1,
      to: offset + posts.length,
    });
  if (base !== undefined && view.after !== undefined) {
    const at = offset === undefined ? '' : `&offset=${offset + posts.length}`;
    view.older = `${base}/feed?after=${encodeURIComponent(view.after)}${at}`;
  }
  if (base !== undefined && view.before !== undefined) {
    const newer = offset === undefined ? undefined : offset - FEED_PAGE_SIZE;
    view.newer =
      newer !== undefined && newer <= 0
        ? base
        : `${base}/feed?before=${encodeURIComponent(view.before)}${newer === undefined ? '' : `&offset=${newer}`}`;
  }
  return view;
}
