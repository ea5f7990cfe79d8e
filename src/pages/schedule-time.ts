import type { Locale, Say } from '../i18n/locale';
import type { WriteOutcome } from '../writes/path';

/**
 * A time to publish at, as a person enters it and reads it back: a wall-clock time (`<input type=datetime-local>`,
 * `2026-12-01T09:30`) in their own IANA time zone, turned into an instant, checked against the provider's window,
 * and said back in the same zone and the page's language. Used by the composer (./publish-routes.ts) and by
 * rescheduling a post: one reading of a time for both.
 *
 * The window is the provider's: a scheduled post's `scheduled_publish_time` must be from 10 minutes to 30 days
 * after the request (Pages API Posts guide, https://developers.facebook.com/docs/pages-api/posts, "Schedule a
 * post"; the emulator's docs/reference.md#publishing). Checked here first so a time outside it is refused in
 * words, the text kept, before any provider call.
 */

/** The provider's scheduling window, from the request: at least 10 minutes, at most 30 days ahead. */
export const SCHEDULE_WINDOW = { minMs: 10 * 60_000, maxMs: 30 * 86_400_000 } as const;

/** Why a time cannot be used, each said in words by the catalogs' `schedule.refused.*`. */
export type ScheduleRefusal = 'unreadable' | 'zone' | 'tooSoon' | 'tooLate';

export type ScheduleParse = { at: number } | { refused: ScheduleRefusal };

/** What `<input type=datetime-local>` sends: a date and a minute, seconds optional (HTML's local date and time string). */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;

/** The time zones this runtime knows, by their IANA names: the choices the form offers. */
export function timeZones(): readonly string[] {
  return ZONES;
}

const ZONES: readonly string[] = Object.freeze(
  // UTC is no "region/city" and Intl lists it only in some runtimes: offered always.
  [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])].sort(),
);
const KNOWN = new Set(ZONES);

/** An IANA name as written: `Region/City`, `Region/Sub/City`, or `UTC`. */
const ZONE_NAME = /^(?:UTC|[A-Z][A-Za-z_-]{1,30}(?:\/[A-Z][A-Za-z0-9_+-]{0,30}){1,2})$/;

/**
 * Whether `zone` is an IANA time zone Intl can say times in: one it lists, or an alias of one (a browser's
 * `Asia/Kolkata` where this runtime lists `Asia/Calcutta`), written as IANA writes it.
 */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string') return false;
  if (KNOWN.has(zone)) return true;
  if (!ZONE_NAME.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * `local` (a wall-clock time in `zone`) as an instant (epoch ms), or why not: not a time, an unknown zone, or
 * outside {@link SCHEDULE_WINDOW} from `now`. A time the clocks skip (spring forward) is moved on by the gap, a
 * time they pass twice (fall back) is the first of the two: Temporal's `compatible` choice, what a wall clock
 * shows an hour later and what happens first.
 */
export function parseScheduleTime(local: string, zone: string, now: number): ScheduleParse {
  if (!isTimeZone(zone)) return { refused: 'zone' };
  const at = instantOf(local, zone);
  if (at === undefined) return { refused: 'unreadable' };
  return checkWindow(at, now);
}

/** `at` checked against the window from `now`: the instant, or too soon, or too late. */
export function checkWindow(at: number, now: number): ScheduleParse {
  if (at - now < SCHEDULE_WINDOW.minMs) return { refused: 'tooSoon' };
  if (at - now > SCHEDULE_WINDOW.maxMs) return { refused: 'tooLate' };
  return { at };
}

/** The wall-clock time `local` in `zone` as epoch ms; undefined when it is no date and time. */
export function instantOf(local: string, zone: string): number | undefined {
  const m = LOCAL.exec(local.trim());
  if (m === null || !isTimeZone(zone)) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 31 February over into March: a date the calendar does not have is no date.
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
    return undefined;
  // The zone's offset a little before and after the wall time: the same, except across a change of the clocks.
  const before = offsetAt(wall - 86_400_000, zone);
  const after = offsetAt(wall + 86_400_000, zone);
  const first = wall - before;
  if (offsetAt(first, zone) === before) return first; // the earlier reading when the wall time happens twice
  const second_ = wall - after;
  if (offsetAt(second_, zone) === after) return second_;
  // In a gap (the clocks skip it): the wall time, read with the offset before, lands after the gap.
  return wall - before;
}

/** `epoch` as `<input type=datetime-local>` shows it in `zone` (`2026-12-01T09:30`): the form filled in again. */
export function localInputValue(epoch: number, zone: string): string {
  const p = partsIn(epoch, zone);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** Formats kept: a zone and a language each; far more than the zones people pick on one instance. */
const MAX_FORMATS = 500;

/**
 * `epoch` said in `zone` and the language `intl` (a BCP 47 tag, the page's `locale.intl`), with the zone named:
 * "Tuesday, 1 December 2026 at 09:30 CET".
 */
export function formatScheduleTime(epoch: number, zone: string, intl: string): string {
  const key = `${intl}\n${zone}`;
  let format = formats.get(key);
  if (format === undefined) {
    if (formats.size >= MAX_FORMATS) formats.clear();
    format = new Intl.DateTimeFormat(intl, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: isTimeZone(zone) ? zone : 'UTC',
      timeZoneName: 'short',
    });
    formats.set(key, format);
  }
  return format.format(epoch);
}

interface WallParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone` at `epoch`. */
function partsIn(epoch: number, zone: string): WallParts {
  let format = partFormats.get(zone);
  if (format === undefined) {
    if (partFormats.size >= MAX_FORMATS) partFormats.clear();
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partFormats.set(zone, format);
  }
  const parts: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(epoch)) if (type !== 'literal') parts[type] = Number(value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** The zone's offset from UTC at `epoch`, in ms (the wall clock minus UTC), to the second. */
function offsetAt(epoch: number, zone: string): number {
  const p = partsIn(epoch, zone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(epoch / 1000) * 1000;
}

/** A refusal in words with the window's end it passed said in `zone` ({@link scheduleWords}); else as it is. */
export function timeWordsOf<O extends WriteOutcome>(outcome: O, zone: string, now: number, locale: Locale): O {
  if (outcome.status !== 'refused' || outcome.refusal.say === undefined) return outcome;
  return {
    ...outcome,
    refusal: { ...outcome.refusal, say: scheduleWords(outcome.refusal.say, { zone }, now, locale) },
  };
}

/**
 * A time's refusal with the window's end it passed, in the person's zone and the page's language: a whole minute
 * (the input has no seconds) a minute inside the window, so the time said is still in it when sent again. Also
 * rescheduling's (./write-routes.ts).
 */
export function scheduleWords(say: Say, input: { zone: string }, now: number, locale: Locale): Say {
  const zone = isTimeZone(input.zone) ? input.zone : 'UTC';
  const minute = 60_000;
  const at =
    say.key === 'schedule.refused.tooSoon'
      ? Math.ceil((now + SCHEDULE_WINDOW.minMs) / minute) * minute + minute
      : say.key === 'schedule.refused.tooLate'
        ? Math.floor((now + SCHEDULE_WINDOW.maxMs) / minute) * minute - minute
        : undefined;
  return at === undefined ? say : { key: say.key, values: { time: formatScheduleTime(at, zone, locale.intl) } };
}
