import express from 'express';
import fc from 'fast-check';
import { useViews } from '../../src/http/views';
import { englishLocale } from '../../src/i18n/catalogs';
import { renderPartial } from '../../src/pages/fragments';
import { linkify, type Segment } from '../../src/pages/view-text';
import { toFeedView } from '../../src/pages/feed-view';

/**
 * Post text is written by any Page admin, up to about 63,000 characters: turning its URLs into links must
 * cost time in proportion to its length, whatever it holds (docs/architecture.md#security-rules).
 */

/** 100,000 characters: more than the provider lets a post hold. */
const SIZE = 100_000;

/**
 * The budget for rendering one such post. The work is linear (a few milliseconds here); the quadratic
 * bracket check this replaces took 4.2 s for 20,000 brackets, so about 100 s for 100,000: a budget three
 * orders of magnitude above the linear cost tells the two apart on any machine, however busy.
 */
const BUDGET_MS = 5_000;

const HOSTILE: [string, string][] = [
  ['a URL followed by closing brackets', 'https://a.example/' + ')'.repeat(SIZE)],
  ['a URL followed by mixed closers and punctuation', 'https://a.example/x' + '.)]},'.repeat(SIZE / 5)],
  [
    'a URL with opening brackets, then as many closers',
    'https://a.example/' + '('.repeat(SIZE / 2) + ')'.repeat(SIZE / 2),
  ],
  ['URLs back to back', 'https://a.example/)'.repeat(SIZE / 19)],
  ['a scheme without a host, repeated', 'http://'.repeat(SIZE / 7)],
  ['one long line without spaces', 'x'.repeat(SIZE)],
];

function rendered(message: string): string {
  const app = express();
  useViews(app);
  const feed = toFeedView({ data: [{ id: '1_2', created_time: '2026-10-01T12:00:00+0000', message }] }, 'first', {
    pageId: '1',
  });
  return renderPartial(app, englishLocale(), 'posts', feed).html;
}

describe('post text written to hurt', () => {
  it.each(HOSTILE)(
    'when a post of 100,000 characters is %s, then it renders (within the budget)',
    (_shape, message) => {
      // Rendering is synchronous: jest's timeout cannot stop it, so the time is read around it.
      const started = performance.now();
      const html = rendered(message);
      expect(performance.now() - started).toBeLessThan(BUDGET_MS);
      expect(html.length).toBeGreaterThan(0);
    },
  );
});

/** The bracket rule as first written (quadratic, but plainly right): the reference for the property below. */
function trimReference(candidate: string): string {
  const closers: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  let url = candidate;
  for (;;) {
    const last = url.charAt(url.length - 1);
    const opener = closers[last];
    if (/[.,;:!?'"*]$/.test(url)) url = url.slice(0, -1);
    else if (opener && url.split(opener).length < url.split(last).length) url = url.slice(0, -1);
    else return url;
  }
}

/** What linkify must make of a line, by the reference rule. */
function linkifyReference(line: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const match of line.matchAll(/\bhttps?:\/\/[^\s<>"]+/gi)) {
    const start = match.index;
    const candidate = trimReference(match[0]);
    let href: string | undefined;
    try {
      const url = new URL(candidate.trim());
      href = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname ? url.href : undefined;
    } catch {
      href = undefined;
    }
    if (!href) continue;
    if (start > last) out.push({ text: line.slice(last, start) });
    out.push({ text: href, href });
    last = start + candidate.length;
  }
  if (last < line.length || out.length === 0) out.push({ text: line.slice(last) });
  return out;
}

describe('linkify', () => {
  const piece = fc.constantFrom(
    'https://',
    'http://',
    'a.example',
    '/',
    '(',
    ')',
    '[',
    ']',
    '{',
    '}',
    '.',
    ',',
    '!',
    ' ',
    '"',
    'é',
    '😀',
    'x',
  );

  it('when the text is any mix of URLs, brackets and punctuation, then the links are those of the plain rule', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 60 }).map((parts) => parts.join('')),
        (line) => {
          expect(linkify(line)).toEqual(linkifyReference(line));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('when the text is random, then the segments put back together are the text, links normalised', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (line) => {
        const segments = linkify(line);
        expect(segments.length).toBeGreaterThan(0);
        expect(segments.every((s) => s.href === undefined || /^https?:\/\//.test(s.href))).toBe(true);
        if (segments.every((s) => s.href === undefined)) expect(segments.map((s) => s.text).join('')).toBe(line);
      }),
    );
  });
});
