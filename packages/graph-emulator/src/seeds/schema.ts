/**
 * A seed as a file (`EMULATOR_SEED=./my-seed.json`, the seed control's `{"seed": …}`, README#seeds): the
 * shapes of ./types.ts checked with zod, unknown keys refused, so a typo is named rather than ignored, and
 * every bad field reported on one line (`pages.0.feed.3.created_time: …`).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describeZodError } from '../zod-message';
import { ALL_TASKS } from '../permissions';
import type { Seed, SeedAttachment, SeedComment } from './types';

const id = z.string().regex(/^\d+$/, 'must be a numeric id');
const postId = z.string().regex(/^\d+_\d+$/, 'must be <page id>_<number>');
/** Provider format, as the Graph API writes times: 2026-10-01T12:00:00+0000. */
const time = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/, 'must be a time such as 2026-10-01T12:00:00+0000');
const count = z.number().int().min(0);
const flag = z.union([z.literal(0), z.literal(1)]);

const attachmentSchema: z.ZodType<SeedAttachment> = z.lazy(() =>
  z.strictObject({
    type: z.enum(['photo', 'share', 'album', 'video_inline']),
    title: z.string().optional(),
    description: z.string().optional(),
    url: z.string().optional(),
    media: z
      .strictObject({
        image: z.strictObject({ src: z.string(), width: count, height: count }),
        source: z.string().optional(),
      })
      .optional(),
    target: z.strictObject({ id: z.string().optional(), url: z.string() }).optional(),
    subattachments: z.array(attachmentSchema).optional(),
  }),
);

const commentSchema: z.ZodType<SeedComment> = z.lazy(() =>
  z.strictObject({
    id: z.string().regex(/^\d+_\d+$/, 'must be <number>_<number>'),
    created_time: time,
    message: z.string(),
    from: z.strictObject({ id, name: z.string() }).optional(),
    like_count: count.optional(),
    is_hidden: z.boolean().optional(),
    page_likes: z.boolean().optional(),
    replies: z.array(commentSchema).optional(),
  }),
);

const postSchema = z.strictObject({
  id: postId,
  created_time: time,
  message: z.string().optional(),
  story: z.string().optional(),
  full_picture: z.string().optional(),
  imageExpired: z.boolean().optional(),
  attachments: z.array(attachmentSchema).optional(),
  shares: z.strictObject({ count }).optional(),
  reactions: z.record(z.string(), count).optional(),
  comments: z.array(commentSchema).optional(),
  scheduled_publish_time: z.number().int().optional(),
});

const pageSchema = z.strictObject({
  id,
  name: z.string().min(1),
  category: z.string().min(1),
  link: z.string().optional(),
  username: z.string().optional(),
  fan_count: count.optional(),
  followers_count: count.optional(),
  about: z.string().optional(),
  attire: z.string().optional(),
  bio: z.string().optional(),
  description: z.string().optional(),
  phone: z.string().optional(),
  location: z
    .strictObject({
      street: z.string().optional(),
      city: z.string().optional(),
      state: z.string().optional(),
      zip: z.string().optional(),
      country: z.string().optional(),
      latitude: z.number().optional(),
      longitude: z.number().optional(),
    })
    .optional(),
  parking: z.strictObject({ lot: flag, street: flag, valet: flag }).optional(),
  hours: z.record(z.string(), z.string()).optional(),
  emails: z.array(z.string()).optional(),
  website: z.string().optional(),
  picture: z.string().optional(),
  cover: z.strictObject({ id: z.string(), source: z.string(), offset_x: z.number(), offset_y: z.number() }).optional(),
  feed: z.array(postSchema),
  scheduled: z.array(postSchema).optional(),
});

/** The provider's task names (Page reference, `tasks`), as the seeds give them. */
const task = z.string().refine((t) => ALL_TASKS.includes(t), { message: `must be one of ${ALL_TASKS.join(', ')}` });

const userSchema = z.strictObject({
  id,
  name: z.string().min(1),
  first_name: z.string(),
  middle_name: z.string().optional(),
  last_name: z.string(),
  email: z.string(),
  roles: z.array(z.strictObject({ pageId: id, tasks: z.array(task) })),
  businesses: z.array(id).optional(),
});

const businessSchema = z.strictObject({
  id,
  name: z.string().min(1),
  owned_pages: z.array(id),
  client_pages: z.array(id),
  tasks: z.array(task),
});

export const seedSchema = z
  .strictObject({
    $schema: z.string().optional(),
    users: z.array(userSchema),
    pages: z.array(pageSchema),
    businesses: z.array(businessSchema).optional(),
    timesRelativeTo: z
      .union([z.number().int(), time.transform((t) => Date.parse(t.replace(/\+0000$/, 'Z')))])
      .optional()
      .meta({
        description:
          'Relative times: the moment the times below are written for, as a time (2026-11-20T19:45:00+0000) or epoch ms. ' +
          "The emulator moves every post's and comment's time, and each scheduled_publish_time, by its start minus " +
          'this, so a post written 3 hours before it is 3 hours old on any day. Unset: times are used as written.',
      }),
  })
  .superRefine((seed, issue) => {
    // What names another entry must find it, as the Graph API would.
    const pages = new Set(seed.pages.map((p) => p.id));
    const businesses = new Set((seed.businesses ?? []).map((b) => b.id));
    seed.users.forEach((u, i) => {
      u.roles.forEach((r, j) => {
        if (!pages.has(r.pageId)) {
          issue.addIssue({ code: 'custom', path: ['users', i, 'roles', j, 'pageId'], message: `no page ${r.pageId}` });
        }
      });
      u.businesses?.forEach((b, j) => {
        if (!businesses.has(b)) {
          issue.addIssue({ code: 'custom', path: ['users', i, 'businesses', j], message: `no business ${b}` });
        }
      });
    });
    seed.pages.forEach((p, i) =>
      (['feed', 'scheduled'] as const).forEach((list) =>
        (p[list] ?? []).forEach((post, j) => {
          if (!post.id.startsWith(`${p.id}_`)) {
            issue.addIssue({ code: 'custom', path: ['pages', i, list, j, 'id'], message: `must start with ${p.id}_` });
          }
        }),
      ),
    );
  });

/** A bad seed, described on one line naming every bad field. */
export class SeedError extends Error {
  override name = 'SeedError';
}

/** Checks a seed given as data (a parsed file, a control's body). */
export function parseSeed(input: unknown, what: string): Seed {
  const result = seedSchema.safeParse(input);
  if (!result.success) throw new SeedError(`${what}: ${describeZodError(result.error)}`);
  const { $schema, ...seed } = result.data;
  void $schema;
  return seed;
}

/** Reads and checks a seed file. */
export function readSeedFile(file: string): Seed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SeedError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new SeedError(`${file}: is not JSON (${(err as Error).message})`);
  }
  return parseSeed(data, file);
}
