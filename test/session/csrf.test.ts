import { safeEqual } from '../../src/session/csrf';

describe('safeEqual', () => {
  it('when strings differ in length or content, then false; equal, then true', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
