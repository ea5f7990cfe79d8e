/**
 * The provider's Graph API versions and the day each stops being available, from its changelog
 * ("Available Graph API Versions", https://developers.facebook.com/docs/graph-api/changelog, the copy
 * updated October 29, 2026). The emulator keeps its own copy of this fact about the provider: the app
 * has one too (src/graph/versions.ts), and a test of the app's checks that the two agree.
 */

/**
 * Version → the first day (UTC, `YYYY-MM-DD`) it is no longer available; `undefined`: not announced yet. v27.0
 * (released 4 November 2026, blog "Introducing Graph API v27.0") is added without an end; v26.0's end is not in the
 * copy of the changelog above and stays unannounced here.
 */
export const GRAPH_API_VERSIONS: Readonly<Record<string, string | undefined>> = Object.freeze({
  'v27.0': undefined,
  'v26.0': undefined,
  'v25.0': '2028-07-29',
  'v24.0': '2028-02-18',
  'v23.0': '2027-10-08',
  'v22.0': '2027-05-20',
  'v21.0': '2027-01-21',
  'v20.0': '2026-09-24',
  'v19.0': '2026-05-21',
  'v18.0': '2026-01-26',
  'v17.0': '2025-09-12',
  'v16.0': '2025-05-14',
  'v15.0': '2024-11-20',
  'v14.0': '2024-09-17',
  'v13.0': '2024-05-28',
});

/** `v21.0` → [21, 0], for ordering. */
function parts(version: string): [number, number] {
  const [major, minor] = version.slice(1).split('.').map(Number);
  return [major ?? 0, minor ?? 0];
}

function older(a: string, b: string): boolean {
  const [am, an] = parts(a);
  const [bm, bn] = parts(b);
  return am < bm || (am === bm && an < bn);
}

const KNOWN = Object.keys(GRAPH_API_VERSIONS).sort((a, b) => (older(a, b) ? -1 : 1));

function available(version: string, now: number): boolean {
  const end = GRAPH_API_VERSIONS[version];
  return end === undefined || now < Date.parse(`${end}T00:00:00Z`);
}

/**
 * The version that answers a call made at `requested`: itself while it is available (or newer than
 * every version the table knows), otherwise the oldest version still available, as the provider
 * upgrades calls to a retired version. A version older than the table is long retired.
 */
export function answeringVersion(requested: string, now: number): string {
  const oldest = KNOWN[0];
  const known = requested in GRAPH_API_VERSIONS;
  if (known && available(requested, now)) return requested;
  if (!known && (oldest === undefined || !older(requested, oldest))) return requested;
  return KNOWN.find((v) => !older(v, requested) && available(v, now)) ?? requested;
}
