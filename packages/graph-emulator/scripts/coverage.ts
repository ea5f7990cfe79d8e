/**
 * The coverage table (docs/coverage.md), generated from the code that serves the calls:
 *   - nodes and their fields: the ObjectType declarations `fields=` is validated against (src/graph/select.ts);
 *   - calls: `CALLS` below, each with a call test/coverage.test.ts makes through the emulator, which must answer 200;
 *   - parameters: every request parameter the Graph-serving code reads (src/graph, src/token, src/dialog);
 *   - error codes: every `code:` (and `subcode:`) a GraphError or a refusal is built with under src/.
 * `npx tsx scripts/coverage.ts` rewrites docs/coverage.md; test/coverage.test.ts fails when the file is stale.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMMENT } from '../src/graph/comments';
import { PAGE } from '../src/graph/page';
import { POST } from '../src/graph/post';
import type { ObjectType } from '../src/graph/select';
import { USER } from '../src/graph/user';

const ROOT = path.resolve(__dirname, '..');
export const COVERAGE_FILE = path.join(ROOT, 'docs', 'coverage.md');

/** The node types a `fields` expression is checked against, with the provider's reference each follows. */
export const NODE_TYPES: readonly { type: ObjectType; source: string }[] = [
  { type: USER, source: 'Graph API "User" reference' },
  { type: PAGE, source: 'Graph API "Page" reference' },
  { type: POST, source: 'Graph API "Post" (Page Post) reference' },
  { type: COMMENT, source: 'Graph API "Comment" reference' },
];

export type TokenKind = 'none' | 'user' | 'page' | 'app';
export interface CallCoverage {
  method: 'GET' | 'POST' | 'DELETE';
  /** The path as the provider documents it. */
  path: string;
  /** A concrete call the coverage test makes (test seed), which must answer 200 (or the dialog's page). */
  probe: string;
  token: TokenKind;
  source: string;
}

const PAGE_ID = '104735298765432';
const POST_ID = '{post}';
const BUSINESS_ID = '{business}';

/** Every call the emulator serves besides the login dialog's steps. */
export const CALLS: readonly CallCoverage[] = [
  { method: 'GET', path: '/me', probe: '/v25.0/me', token: 'user', source: '"User" reference' },
  {
    method: 'GET',
    path: '/me/permissions',
    probe: '/v25.0/me/permissions',
    token: 'user',
    source: '"User Permissions" reference',
  },
  {
    method: 'GET',
    path: '/me/accounts',
    probe: '/v25.0/me/accounts',
    token: 'user',
    source: '"User Accounts" reference',
  },
  {
    method: 'GET',
    path: '/me/businesses',
    probe: '/v25.0/me/businesses',
    token: 'user',
    source: '"User Businesses" reference',
  },
  {
    method: 'GET',
    path: '/{business-id}',
    probe: `/v25.0/${BUSINESS_ID}`,
    token: 'user',
    source: '"Business" reference',
  },
  {
    method: 'GET',
    path: '/{business-id}/owned_pages',
    probe: `/v25.0/${BUSINESS_ID}/owned_pages`,
    token: 'user',
    source: '"Business Owned Pages" reference',
  },
  {
    method: 'GET',
    path: '/{business-id}/client_pages',
    probe: `/v25.0/${BUSINESS_ID}/client_pages`,
    token: 'user',
    source: '"Business Client Pages" reference',
  },
  {
    method: 'GET',
    path: '/{page-id}?fields=access_token',
    probe: `/v25.0/${PAGE_ID}?fields=access_token`,
    token: 'user',
    source: '"Page Access Tokens"',
  },
  { method: 'GET', path: '/{page-id}', probe: `/v25.0/${PAGE_ID}`, token: 'page', source: '"Page" reference' },
  {
    method: 'GET',
    path: '/{page-id}/feed',
    probe: `/v25.0/${PAGE_ID}/feed`,
    token: 'page',
    source: '"Page Feed" reference',
  },
  {
    method: 'GET',
    path: '/{page-id}/posts',
    probe: `/v25.0/${PAGE_ID}/posts`,
    token: 'page',
    source: '"Page Feed" reference (posts)',
  },
  {
    method: 'GET',
    path: '/{page-id}/insights',
    probe: `/v25.0/${PAGE_ID}/insights?metric=page_follows&period=day`,
    token: 'page',
    source: '"Page Insights" reference',
  },
  {
    method: 'GET',
    path: '/{page-id}/insights/{metric}',
    probe: `/v25.0/${PAGE_ID}/insights/page_follows?period=day`,
    token: 'page',
    source: '"Page Insights" reference (one metric by its path)',
  },
  {
    method: 'GET',
    path: '/{page-id}/scheduled_posts',
    probe: `/v25.0/${PAGE_ID}/scheduled_posts`,
    token: 'page',
    source: '"Page Scheduled Posts" reference',
  },
  {
    method: 'GET',
    path: '/{page-id}/picture',
    probe: `/v25.0/${PAGE_ID}/picture?redirect=0`,
    token: 'none',
    source: '"Page Picture" reference',
  },
  {
    method: 'GET',
    path: '/{page-id}/subscribed_apps',
    probe: `/v25.0/${PAGE_ID}/subscribed_apps`,
    token: 'page',
    source: '"Page Subscribed Apps" reference',
  },
  { method: 'GET', path: '/{post-id}', probe: `/v25.0/${POST_ID}`, token: 'page', source: '"Post" reference' },
  {
    method: 'GET',
    path: '/{post-id}/comments',
    probe: `/v25.0/${POST_ID}/comments`,
    token: 'page',
    source: '"Post Comments" reference',
  },
  {
    method: 'GET',
    path: '/{post-id}/reactions',
    probe: `/v25.0/${POST_ID}/reactions?summary=total_count`,
    token: 'page',
    source: '"Object Reactions" reference',
  },
  {
    method: 'GET',
    path: '/{post-id}/insights',
    probe: `/v25.0/${POST_ID}/insights?metric=post_media_view&period=lifetime`,
    token: 'page',
    source: '"Page Post Insights" reference',
  },
  {
    method: 'GET',
    path: '/debug_token',
    probe: '/v25.0/debug_token?input_token={user}',
    token: 'app',
    source: '"Debug Token" reference',
  },
  {
    method: 'GET',
    path: '/{app-id}/subscriptions',
    probe: '/v25.0/{app}/subscriptions',
    token: 'app',
    source: '"Application Subscriptions" reference',
  },
  {
    method: 'POST',
    path: '/{page-id}/feed',
    probe: `/v25.0/${PAGE_ID}/feed?message=Hello`,
    token: 'page',
    source: '"Page Feed" reference (publishing)',
  },
  {
    method: 'POST',
    path: '/{page-id}/photos',
    probe: `/v25.0/${PAGE_ID}/photos?message=Fresh`,
    token: 'page',
    source: '"Page Photos" reference (multipart `source`)',
  },
  {
    method: 'POST',
    path: '/{post-id}',
    probe: `/v25.0/${POST_ID}?message=Edited`,
    token: 'page',
    source: '"Post" reference (updating)',
  },
  {
    method: 'POST',
    path: '/{post-id}/comments',
    probe: `/v25.0/${POST_ID}/comments?message=Thanks`,
    token: 'page',
    source: '"Object Comments" reference (publishing)',
  },
  {
    method: 'POST',
    path: '/{comment-id}',
    probe: '/v25.0/{comment}?is_hidden=true',
    token: 'page',
    source: '"Comment" reference (updating, is_hidden)',
  },
  {
    method: 'POST',
    path: '/{comment-id}/likes',
    probe: '/v25.0/{comment}/likes',
    token: 'page',
    source: '"Object Likes" reference',
  },
  {
    method: 'DELETE',
    path: '/{comment-id}',
    probe: '/v25.0/{comment}',
    token: 'page',
    source: '"Comment" reference (deleting)',
  },
  {
    method: 'DELETE',
    path: '/{post-id}',
    probe: `/v25.0/${POST_ID}`,
    token: 'page',
    source: '"Post" reference (deleting)',
  },
  {
    method: 'POST',
    path: '/oauth/access_token',
    probe: '/v25.0/oauth/access_token',
    token: 'none',
    source: '"Manually Build a Login Flow"; "Access Tokens"',
  },
  { method: 'POST', path: '/ (batch)', probe: '/v25.0/', token: 'user', source: '"Batch Requests"' },
];

/** Outside the Graph API: the dialog, OpenID Connect, the CDN and the person's settings. */
export const PAGES: readonly { path: string; source: string }[] = [
  { path: '/vX.Y/dialog/oauth', source: '"Manually Build a Login Flow", Invoking the Login Dialog' },
  { path: '/.well-known/openid-configuration', source: '"OIDC Code Flow with PKCE"' },
  { path: '/.well-known/oauth/openid/jwks/', source: '"Validating the Limited Login OIDC Token"' },
  { path: '/media/…?oh=…&oe=…', source: '"User Picture" reference (expiring URLs)' },
  { path: '/settings/apps', source: 'Help Center, "Apps and Websites"' },
];

function fieldList(type: ObjectType, prefix = '', seen = new Set<ObjectType>()): string[] {
  if (seen.has(type)) return [];
  const next = new Set(seen).add(type);
  return Object.entries(type.fields).flatMap(([name, kind]) => {
    const full = `${prefix}${name}`;
    if (kind.kind === 'scalar') return [full];
    const label = kind.kind === 'edge' ? `${full} (edge)` : full;
    return [label, ...fieldList(kind.type, `${full}.`, next)];
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** Every error code (with its subcodes) built under src/, and the files that build it. */
export function errorCodes(): { code: number; subcodes: number[]; files: string[] }[] {
  const found = new Map<number, { subcodes: Set<number>; files: Set<string> }>();
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    // `code: N` in an error literal, and the `subcode: M` of the same literal (before its closing brace).
    for (const m of text.matchAll(/(?<![\w])code: (\d+)([^}]*)/g)) {
      const code = Number(m[1]);
      const entry = found.get(code) ?? { subcodes: new Set<number>(), files: new Set<string>() };
      for (const s of (m[2] ?? '').matchAll(/\bsubcode: (\d+)/g)) entry.subcodes.add(Number(s[1]));
      entry.files.add(path.relative(ROOT, file));
      found.set(code, entry);
    }
  }
  return [...found.entries()]
    .sort(([a], [b]) => a - b)
    .map(([code, e]) => ({ code, subcodes: [...e.subcodes].sort((a, b) => a - b), files: [...e.files].sort() }));
}

/** Where the Graph API, the token endpoint and the login dialog read their request parameters. */
const PARAMETER_DIRS = ['src/graph', 'src/token', 'src/dialog'];

/**
 * Every request parameter read under PARAMETER_DIRS, and the files that read it. The code reads parameters one
 * way: from the `Record<string, string>` collectParams (src/params.ts) makes, always named `params` (or
 * `call.params`), as `params.name` or `const { name } = params`; writing one (`params.name = …`) is not reading it.
 * Not scanned: `req.params` (the route's path segments), the members of a batch operation (src/graph/batch.ts
 * checks them with zod), and the dialog's own decision form (src/dialog/routes.ts), which no app sends.
 */
export function parameters(): { name: string; files: string[] }[] {
  const found = new Map<string, Set<string>>();
  const add = (name: string, file: string): void => {
    found.set(name, (found.get(name) ?? new Set<string>()).add(path.relative(ROOT, file)));
  };
  for (const file of PARAMETER_DIRS.flatMap((dir) => sourceFiles(path.join(ROOT, dir)))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?<!req\.)\bparams\.(\w+)\b(?!\s*=[^=])/g)) add(m[1]!, file);
    for (const m of text.matchAll(/\bconst \{([^}]*)\} = (?:call\.)?params\b/g)) {
      for (const part of m[1]!.split(',')) {
        const name = part.split(':')[0]!.trim();
        if (name !== '') add(name, file);
      }
    }
  }
  return [...found.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, files]) => ({ name, files: [...files].sort() }));
}

export function coverageMarkdown(): string {
  const types = NODE_TYPES.map(({ type, source }) => ({ type, source, fields: fieldList(type) }));
  const errors = errorCodes();
  const params = parameters();
  const fieldCount = types.reduce((n, t) => n + t.fields.length, 0);
  const lines = [
    '# Coverage',
    '',
    '<!-- Generated by scripts/coverage.ts from the code that serves each call; test/coverage.test.ts fails when it is stale. -->',
    '',
    `What the emulator serves: ${CALLS.length} Graph API calls on ${NODE_TYPES.length} node types with ${fieldCount} fields ` +
      `(nested ones included), ${PAGES.length} pages outside the Graph API, ${params.length} parameters ` +
      `and ${errors.length} error codes. ` +
      'How each behaves, with its source: the [specification](specification.md).',
    '',
    '## Calls',
    '',
    '| method | path | token | source |',
    '|---|---|---|---|',
    ...CALLS.map((c) => `| ${c.method} | \`${c.path}\` | ${c.token} | ${c.source} |`),
    '',
    '## Pages',
    '',
    '| path | source |',
    '|---|---|',
    ...PAGES.map((p) => `| \`${p.path}\` | ${p.source} |`),
    '',
    '## Fields',
    '',
    'Every field a `fields` expression may name, per node type (a nested field is written `parent.child`); ' +
      'any other is refused with code 100, "Tried accessing nonexisting field".',
    '',
    '| node type | fields | source |',
    '|---|---|---|',
    ...types.map(
      (t) => `| ${t.type.name} (${t.fields.length}) | ${t.fields.map((f) => `\`${f}\``).join(', ')} | ${t.source} |`,
    ),
    '',
    '## Parameters',
    '',
    'Every request parameter the Graph API calls, the token endpoint and the login dialog read, and where ' +
      '(files under `src/`). A parameter read only by `src/graph/legacy.ts` is refused there, as a feature ' +
      'the current version no longer has; any parameter not listed is ignored.',
    '',
    '| parameter | read in |',
    '|---|---|',
    ...params.map((p) => `| \`${p.name}\` | ${p.files.map((f) => `\`${f}\``).join(', ')} |`),
    '',
    '## Error codes',
    '',
    'Every code an answer can carry, with the subcodes built beside it and where (files under `src/`).',
    '',
    '| code | subcodes | built in |',
    '|---|---|---|',
    ...errors.map(
      (e) => `| ${e.code} | ${e.subcodes.join(', ') || '—'} | ${e.files.map((f) => `\`${f}\``).join(', ')} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

if (require.main === module) {
  writeFileSync(COVERAGE_FILE, coverageMarkdown());
  console.log(`wrote ${path.relative(process.cwd(), COVERAGE_FILE)}`);
}
