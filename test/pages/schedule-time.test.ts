import {
  formatScheduleTime,
  instantOf,
  isTimeZone,
  localInputValue,
  parseScheduleTime,
  SCHEDULE_WINDOW,
  timeZones,
} from '../../src/pages/schedule-time';

/**
 * A time to publish at, entered as a wall-clock time in the person's own zone (src/pages/schedule-time.ts): read
 * into an instant, checked against the provider's window, and said back in the same zone.
 */

const NOW = Date.parse('2026-11-27T08:00:00Z');

describe('parseScheduleTime', () => {
  it('when Ada in Berlin enters 1 December at 09:30, then it is 08:30 UTC (CET is UTC+1 in winter)', () => {
    expect(parseScheduleTime('2026-12-01T09:30', 'Europe/Berlin', NOW)).toEqual({
      at: Date.parse('2026-12-01T08:30:00Z'),
    });
  });

  it('when the same wall time is entered in Tokyo, New York or Kolkata, then each is that zone’s instant', () => {
    expect(instantOf('2026-12-01T09:30', 'Asia/Tokyo')).toBe(Date.parse('2026-12-01T00:30:00Z'));
    expect(instantOf('2026-12-01T09:30', 'America/New_York')).toBe(Date.parse('2026-12-01T14:30:00Z'));
    expect(instantOf('2026-12-01T09:30', 'Asia/Kolkata')).toBe(Date.parse('2026-12-01T04:00:00Z'));
    expect(instantOf('2026-12-01T09:30:15', 'UTC')).toBe(Date.parse('2026-12-01T09:30:15Z'));
  });

  it('when the time falls in the hour the clocks skip in spring, then it is moved on by the gap', () => {
    // Europe/Berlin: 02:00 CET becomes 03:00 CEST on 29 March 2026.
    expect(instantOf('2026-03-29T02:30', 'Europe/Berlin')).toBe(Date.parse('2026-03-29T01:30:00Z'));
  });

  it('when the time happens twice as the clocks go back in autumn, then it is the first of the two', () => {
    // Europe/Berlin: 03:00 CEST becomes 02:00 CET on 25 October 2026; 02:30 happens at 00:30 and 01:30 UTC.
    expect(instantOf('2026-10-25T02:30', 'Europe/Berlin')).toBe(Date.parse('2026-10-25T00:30:00Z'));
  });

  it.each([
    ['', 'unreadable'],
    ['tomorrow', 'unreadable'],
    ['2026-02-31T09:00', 'unreadable'],
    ['2026-12-01T24:00', 'unreadable'],
    ['2026-12-01 09:00', 'unreadable'],
  ])('when the time is %j, then it is refused as %s', (local, why) => {
    expect(parseScheduleTime(local, 'Europe/Berlin', NOW)).toEqual({ refused: why });
  });

  it('when the zone is not an IANA zone the form offers, then it is refused as such', () => {
    expect(parseScheduleTime('2026-12-01T09:30', 'Mars/Olympus', NOW)).toEqual({ refused: 'zone' });
    expect(parseScheduleTime('2026-12-01T09:30', '+01:00', NOW)).toEqual({ refused: 'zone' });
  });

  it('when the time is less than 10 minutes or more than 30 days ahead, then it is too soon or too late; the edges are in', () => {
    const at = (ms: number) => localInputValue(NOW + ms, 'UTC');
    expect(parseScheduleTime(at(9 * 60_000), 'UTC', NOW)).toEqual({ refused: 'tooSoon' });
    expect(parseScheduleTime(at(-60 * 60_000), 'UTC', NOW)).toEqual({ refused: 'tooSoon' });
    expect(parseScheduleTime(at(SCHEDULE_WINDOW.minMs), 'UTC', NOW)).toEqual({ at: NOW + SCHEDULE_WINDOW.minMs });
    expect(parseScheduleTime(at(SCHEDULE_WINDOW.maxMs), 'UTC', NOW)).toEqual({ at: NOW + SCHEDULE_WINDOW.maxMs });
    expect(parseScheduleTime(at(SCHEDULE_WINDOW.maxMs + 60_000), 'UTC', NOW)).toEqual({ refused: 'tooLate' });
  });
});

describe('formatScheduleTime and localInputValue', () => {
  const at = Date.parse('2026-12-01T08:30:00Z');

  it('when an instant is said back, then it is in the person’s zone and the page’s language, the zone named', () => {
    expect(formatScheduleTime(at, 'Europe/Berlin', 'en-GB')).toBe('Tuesday, 1 December 2026 at 09:30 CET');
    expect(formatScheduleTime(at, 'Asia/Tokyo', 'ja')).toContain('17:30');
    expect(formatScheduleTime(at, 'America/New_York', 'de')).toContain('03:30');
  });

  it('when an instant fills the form again, then it is the wall time the person entered', () => {
    expect(localInputValue(at, 'Europe/Berlin')).toBe('2026-12-01T09:30');
    expect(instantOf(localInputValue(at, 'Asia/Kolkata'), 'Asia/Kolkata')).toBe(at);
  });

  it('then the zones offered are IANA names, UTC among them, and only those are taken', () => {
    expect(timeZones()).toEqual(expect.arrayContaining(['UTC', 'Europe/Berlin', 'Asia/Tokyo']));
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Asia/Kolkata')).toBe(true);
    expect(isTimeZone('europe/berlin')).toBe(false);
    expect(isTimeZone('Etc/Nowhere')).toBe(false);
  });
});
