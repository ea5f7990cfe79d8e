/**
 * The provider's Graph API versions and the day each stops being available, from its changelog
 * ("Available Graph API Versions", https://developers.facebook.com/docs/graph-api/changelog, the copy updated
 * October 29, 2026; docs/provider-interface.md#version-ends). The emulator keeps its own copy of the same fact
 * (the app must not load the emulator outside demo mode); test/graph/version-ends.test.ts checks the two agree.
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

/** How long before its end a configured version is warned about at start (docs/operations.md#api-versions). */
export const VERSION_WARNING_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;

/** `v21.0` → 21000, for ordering versions. */
function rank(version: string): number {
  const [major, minor] = version.slice(1).split('.').map(Number);
  return (major ?? 0) * 1000 + (minor ?? 0);
}

/** The newest version the table lists. */
export const NEWEST_KNOWN_VERSION: string = Object.keys(GRAPH_API_VERSIONS).reduce((a, b) =>
  rank(b) > rank(a) ? b : a,
);

/** The oldest version the table lists: anything older ended before it (docs/provider-interface.md#version-ends). */
export const OLDEST_KNOWN_VERSION: string = Object.keys(GRAPH_API_VERSIONS).reduce((a, b) =>
  rank(b) < rank(a) ? b : a,
);

/** Whether `version` is older than every version the table lists. */
export function olderThanKnown(version: string): boolean {
  return rank(version) < rank(OLDEST_KNOWN_VERSION);
}

/** When `version` stops being available, as far as the table knows: its last day's end, and the day's name. */
export function versionEnd(version: string): { at: number; day: string } | undefined {
  const day = GRAPH_API_VERSIONS[version];
  return day === undefined ? undefined : { at: Date.parse(`${day}T00:00:00Z`), day };
}

/** Whole days from `now` until `version` ends; undefined when the table gives it no end. */
export function daysLeft(version: string, now: number): number | undefined {
  const end = versionEnd(version);
  return end === undefined ? undefined : Math.ceil((end.at - now) / DAY_MS);
}
