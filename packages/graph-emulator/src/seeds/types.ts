/** The shapes of a seed: people, their roles, Pages and posts, as the Graph API answers them. */

export interface SeedPost {
  id: string;
  /** Provider format: 2026-10-01T12:00:00+0000. */
  created_time: string;
  message?: string;
  story?: string;
  /** Path on the emulator's own origin (`/media/…`, see `mediaPath`); served as a signed absolute URL. */
  full_picture?: string;
  /** Every picture URL of this post is handed out already past its expiry (the CDN then answers 403). */
  imageExpired?: boolean;
  attachments?: SeedAttachment[];
  /** Omitted when the post was never shared, as the provider does. */
  shares?: { count: number };
  /** Reaction counts by type (`like`, `love`, …); the activity controls change them. */
  reactions?: Record<string, number>;
  /** Visitors' comments, oldest first. */
  comments?: SeedComment[];
  /**
   * Unix seconds: a post the Page scheduled, not published yet (it is in `SeedPage.scheduled`, not the feed).
   * The emulator's clock publishes it then (docs/reference.md#publishing).
   */
  scheduled_publish_time?: number;
}

/** A StoryAttachment (Post reference, `attachments` edge): `photo`, `share` (a link) or `album`. */
export interface SeedAttachment {
  type: 'photo' | 'share' | 'album' | 'video_inline';
  title?: string;
  description?: string;
  url?: string;
  /**
   * `media.image.src` is a path on the emulator's origin, like `full_picture`; a video's `media.source` is the
   * path of the video file itself (StoryAttachmentMedia `source`).
   */
  media?: { image: { src: string; width: number; height: number }; source?: string };
  target?: { id?: string; url: string };
  subattachments?: SeedAttachment[];
}

/** A Comment (Comment reference): top-level on a post, or a reply in its parent's `replies`, oldest first. */
export interface SeedComment {
  id: string;
  created_time: string;
  message: string;
  /** Who wrote it; a made-up visitor when the seed names nobody. A Page's own comment names the Page. */
  from?: { id: string; name: string };
  like_count?: number;
  /** Hidden by the Page (Comment reference `is_hidden`): still served to the Page's token. */
  is_hidden?: boolean;
  /** The Page itself likes it (its `user_likes` read with the Page's token); counted in `like_count`. */
  page_likes?: boolean;
  replies?: SeedComment[];
}

export interface PageLocation {
  street?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  latitude?: number;
  longitude?: number;
}

/** Field shapes as the Graph API returns them (docs/specification.md#page-fields). */
export interface SeedPage {
  id: string;
  name: string;
  category: string;
  link?: string;
  username?: string;
  fan_count?: number;
  followers_count?: number;
  about?: string;
  attire?: string;
  bio?: string;
  description?: string;
  phone?: string;
  location?: PageLocation;
  parking?: { lot: 0 | 1; street: 0 | 1; valet: 0 | 1 };
  hours?: Record<string, string>;
  emails?: string[];
  website?: string;
  /** Profile picture: a scene name (`media/art.ts`), drawn at the size asked; without one, the silhouette. */
  picture?: string;
  /** Cover Photo reference shape; `source` is a path on the emulator's origin. */
  cover?: { id: string; source: string; offset_x: number; offset_y: number };
  /** Newest first. */
  feed: SeedPost[];
  /** Posts not published yet: scheduled (with `scheduled_publish_time`) or unpublished. */
  scheduled?: SeedPost[];
}

export interface SeedRole {
  pageId: string;
  tasks: string[];
}

export interface SeedUser {
  id: string;
  name: string;
  first_name: string;
  /** Omitted when the person has none, as the provider does. */
  middle_name?: string;
  last_name: string;
  email: string;
  roles: SeedRole[];
  /**
   * Business portfolios the person belongs to (ids of `Seed.businesses`). Their Pages are not in the
   * person's `/me/accounts`; with `business_management` granted they are read through `/me/businesses`
   * and each portfolio's `owned_pages` and `client_pages`, and give a page token.
   */
  businesses?: string[];
}

/** A business portfolio (Business Manager): the Pages it owns and the Pages of clients it works for. */
export interface SeedBusiness {
  id: string;
  name: string;
  owned_pages: string[];
  client_pages: string[];
  /** What a member's role through the portfolio lets them do on its Pages. */
  tasks: string[];
}

export interface Seed {
  users: SeedUser[];
  pages: SeedPage[];
  businesses?: SeedBusiness[];
  /**
   * The moment the seed's times are written for (epoch ms). When set, the emulator moves every post's and
   * comment's time by its own start minus this, so a post written "3 hours before" is 3 hours old on any day.
   * Unset: the times are used as written (the test seed, whose dates the tests assert on).
   */
  timesRelativeTo?: number;
}
