import type { Failure } from '@pagelight/graph-emulator';

/** A Graph error body as the provider sends it, with its HTTP status. */
const graphError = (status: number, code: number, message: string): Failure => ({ status, error: { code, message } });

/** Each fault the provider can throw at a page view, the page the person gets, and a healthy process after. */
export const FAULTS: [string, number, Failure, RegExp][] = [
  ['latency beyond the timeout', 504, { kind: 'slow', ms: 3000 }, /answer in time/],
  ['a hung connection', 504, { kind: 'hang' }, /answer in time/],
  ['a 503 HTML page', 502, { kind: 'http', status: 503, body: '<html>Service Unavailable</html>' }, /reach Facebook/],
  ['a 200 that is not JSON', 502, { kind: 'http', status: 200, body: 'this is not json' }, /reach Facebook/],
  [
    'a 200 JSON of the wrong shape',
    502,
    { kind: 'http', status: 200, body: '{"data":"nope"}', contentType: 'application/json' },
    /reach Facebook/,
  ],
  ['a connection reset', 502, { kind: 'reset' }, /reach Facebook/],
  ['an unknown error (code 1)', 502, graphError(500, 1, 'An unknown error occurred'), /had a problem/],
  ['a transient error (code 2)', 502, graphError(503, 2, 'Service temporarily unavailable'), /had a problem/],
  ['app throttling (code 4)', 429, graphError(403, 4, '(#4) Application request limit reached'), /try again/],
  ['user throttling (code 17)', 429, graphError(403, 17, '(#17) User request limit reached'), /try again/],
  ['page throttling (code 32)', 429, graphError(403, 32, '(#32) Page request limit reached'), /try again/],
  [
    'call-specific throttling (code 613)',
    429,
    graphError(403, 613, 'Calls to this api have exceeded the rate limit.'),
    /try again/,
  ],
  // A page view without the feed, not an error page (docs/architecture.md#error-model).
  [
    'a permission error (code 200)',
    200,
    graphError(403, 200, '(#200) Requires pages_read_engagement permission to manage the object'),
    /Read your Page's posts/,
  ],
];
