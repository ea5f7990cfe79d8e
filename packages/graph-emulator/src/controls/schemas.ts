/**
 * Shapes accepted by the test controls, shared by the JS API and the HTTP
 * endpoints so both refuse the same mistakes with the same messages.
 */
import { z } from 'zod';
import { SEED_NAMES } from '../seed';

import type { Failure } from '../types';

const digits = z.string().regex(/^\d+$/, 'must be a numeric id');
const status = z.number().int().min(100).max(599);
const match = z.string().min(1).optional();
/** Seconds, sent as `Retry-After` with the scripted answer (README#test-controls). */
const retryAfter = z.number().int().min(0).max(86_400).optional();
const writes = z.boolean().optional();

export const tokenFilterSchema = z.strictObject({
  userId: digits.optional(),
  pageId: digits.optional(),
  token: z.string().min(1).optional(),
});

export const revokeSchema = tokenFilterSchema.extend({
  reason: z.enum(['password_changed', 'app_removed', 'logged_out']).optional(),
});

/** A scripted failure (docs/reference.md#test-controls-__emulator); a Graph error's `kind` may be left out. */
export const failureSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('graph'),
    status: status.optional(),
    error: z.strictObject({
      code: z.number().int(),
      subcode: z.number().int().optional(),
      message: z.string().optional(),
      type: z.string().optional(),
      userTitle: z.string().max(200).optional(),
      userMessage: z.string().max(2000).optional(),
    }),
    retryAfter,
    match,
    writes,
  }),
  z.strictObject({
    kind: z.literal('http'),
    status,
    body: z.string().optional(),
    contentType: z.string().optional(),
    retryAfter,
    match,
    writes,
  }),
  z.strictObject({ kind: z.literal('reset'), match, writes }),
  z.strictObject({ kind: z.literal('hang'), match, writes }),
  z.strictObject({ kind: z.literal('slow'), ms: z.number().int().min(0).max(600_000), match, writes }),
  z.strictObject({ kind: z.literal('late'), ms: z.number().int().min(0).max(600_000), match, writes }),
]);

/** A Graph error failure may omit `kind`, as in `{ status, error: { code } }`. */
export function parseFailure(input: unknown): Failure {
  const withKind =
    input !== null && typeof input === 'object' && !('kind' in input) ? { ...input, kind: 'graph' } : input;
  return failureSchema.parse(withKind);
}

export const failSchema = z.strictObject({
  n: z.number().int().min(1).max(1_000_000).default(1),
  // Checked by parseFailure (a Graph error may leave out `kind`); the OpenAPI document describes its shapes.
  failure: z.unknown().meta({ $ref: '#/components/schemas/Failure' }),
  match,
});

export const seedSchema = z.strictObject({
  name: z.enum(SEED_NAMES, { message: `must be one of ${SEED_NAMES.map((n) => `"${n}"`).join(', ')}` }),
});

/** `PUT /__emulator/seed`: a named seed, or a whole one (a file's content, a snapshot), checked by `loadSeed`. */
export const putSeedSchema = z
  .strictObject({
    name: seedSchema.shape.name.optional(),
    seed: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'A whole seed, as seed.schema.json describes it' }),
  })
  .refine((b) => (b.name === undefined) !== (b.seed === undefined), {
    path: ['name'],
    message: `must be one of ${SEED_NAMES.map((n) => `"${n}"`).join(', ')}, or a whole seed given as seed, not both`,
  });

/** `POST /__emulator/pages/:id`: Page fields and their values (null unsets), checked by the page itself. */
export const pageFieldsSchema = z.record(z.string(), z.unknown());

/** `GET /__emulator/calls`: which logged calls to count. */
export const callFilterSchema = z.object({
  method: z.string().optional(),
  path: z.string().optional(),
  tokenKind: z.enum(['user', 'page', 'app', 'unknown']).optional(),
});

/** `PUT /__emulator/feed/empty-pages`: the positions themselves are checked by `setEmptyFeedPages`. */
export const emptyFeedPagesSchema = z.strictObject({ positions: z.array(z.number()).max(100) });

export const removedFieldsSchema = z.strictObject({ fields: z.array(z.string().max(100)).max(50) });

export const latencySchema = z.strictObject({ ms: z.number().int().min(0).max(600_000) });

export const rateLimitSchema = z.strictObject({
  calls: z.number().int().min(1),
  windowMs: z.number().int().min(1),
  headersAfter: z.number().int().min(0).optional(),
});

export const issueTokenSchema = z.strictObject({
  userId: digits,
  clientId: z.string().min(1).optional(),
  scopes: z.array(z.string()).optional(),
  longLived: z.boolean().optional(),
  pageId: digits.optional(),
  pages: z.array(digits).max(1000).optional(),
});

export const removeAppSchema = z.strictObject({
  userId: digits,
  clientId: z.string().min(1).optional(),
  requestDeletion: z.boolean().optional(),
});

/** A person's tasks on a page (the provider's task names), or null for no role. */
export const roleSchema = z.strictObject({
  userId: digits,
  pageId: digits,
  tasks: z
    .array(z.enum(['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE']))
    .max(5)
    .nullable(),
});

export const refuseMetricSchema = z.strictObject({ metric: z.string().regex(/^[a-z_]{1,100}$/) });

/** An app's creation day (README#legacy-features); without `clientId`, the first registered app's. */
export const appCreatedSchema = z.strictObject({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day written YYYY-MM-DD'),
  clientId: digits.optional(),
});

/** At most this far in one move: ten years, far past any token's or scheduled post's time. */
const MAX_CLOCK_MOVE_MS = 10 * 366 * 24 * 3_600_000;

/** `moveClock`, `POST /__emulator/clock`: forward by `advanceMs`, or to the instant `at` (docs/reference.md#clock). */
export const clockSchema = z
  .strictObject({
    advanceMs: z.number().int().min(0).max(MAX_CLOCK_MOVE_MS).optional(),
    at: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((m) => (m.advanceMs === undefined) !== (m.at === undefined), {
    path: ['advanceMs'],
    message: 'give advanceMs or at, one of them',
  });
