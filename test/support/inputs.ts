/**
 * Arbitrary input for the routes, shared by the property tests and the
 * reliability report (npm run report:reliability), so both throw the same things.
 */
import fc from 'fast-check';

/** A query string from arbitrary pairs: known OAuth names and others, repeated, empty, unicode, huge. */
export const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'code',
          'state',
          'error',
          'error_reason',
          'error_description',
          'error_code',
          'after',
          'before',
          'rerequest',
          '__proto__',
          'constructor',
        ),
        fc.string({ maxLength: 20 }),
      ),
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.constant(''),
        fc.nat().map((n) => 'x'.repeat(n % 5000)),
      ),
    ),
    { maxLength: 8 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

/** A path segment: digits, near-digits, encoded oddities, dot segments. */
export const segment = fc.oneof(
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.stringMatching(/^[0-9]{1,40}$/),
  fc.constantFrom('..', '.', '%2e%2e', '%00', '-1', '1e5', '0x10', ' 1', '%20', '１２３', '1%2F2', '12;34', '%E0%A4%A'),
);
