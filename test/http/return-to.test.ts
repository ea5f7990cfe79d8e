import { MAX_RETURN_TO, ownPath, pageIdOf } from '../../src/http/return-to';

/** docs/architecture.md#return-to */
describe('ownPath (where a login or "Try again" may lead)', () => {
  it.each([
    ['/pages', '/pages'],
    ['/pages/104735298765432', '/pages/104735298765432'],
    ['/pages/104735298765432/feed?after=QVFIUmx1', '/pages/104735298765432/feed?after=QVFIUmx1'],
    ['/pages/1/feed?before=a%3D%3D', '/pages/1/feed?before=a%3D%3D'],
    ['/pages/104735298765432/insights', '/pages/104735298765432/insights'],
  ])('when the path is our own page route %s, then it is kept as %s', (raw, kept) => {
    expect(ownPath(raw)).toBe(kept);
  });

  it.each([
    ['a protocol-relative URL', '//evil.example'],
    ['a protocol-relative URL to our route', '//evil.example/pages'],
    ['a backslash', '/\\evil.example'],
    ['a backslash later', '/pages/\\evil.example'],
    ['encoded slashes', '/%2F%2Fevil'],
    ['encoded slashes in a page route', '/pages/%2F%2Fevil.example'],
    ['an encoded backslash', '/pages/%5Cevil'],
    ['an absolute URL', 'https://evil.example/pages'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,hi'],
    ['CRLF', '/pages\r\nSet-Cookie: x=1'],
    ['encoded CRLF', '/pages/1/feed?after=%0d%0aSet-Cookie:x'],
    ['a NUL', '/pages\u0000'],
    ['a tab', '/pages/\t1'],
    ['a relative path', 'pages/1'],
    ['a path outside our page routes', '/auth/logout'],
    ['the login itself', '/auth/login?return_to=/pages'],
    ['a fragment', '/pages/1#x'],
    ['dot segments', '/pages/1/../../auth/logout'],
    ['a non-numeric page id', '/pages/abc'],
    ['the events stream', '/pages/1/events'],
    ['a broken escape', '/pages/1/feed?after=%E0%A4%A'],
    ['nothing', ''],
    ['a very long path', `/pages/1/feed?after=${'a'.repeat(MAX_RETURN_TO)}`],
  ])('when the value is %s, then it is refused', (_name, raw) => {
    expect(ownPath(raw)).toBeUndefined();
  });

  it('when the value is not a string (a repeated parameter, an object), then it is refused', () => {
    expect(ownPath(['/pages', '/pages'])).toBeUndefined();
    expect(ownPath({ a: '/pages' })).toBeUndefined();
    expect(ownPath(undefined)).toBeUndefined();
  });

  it('when a path names a page, then its id is read; otherwise none', () => {
    expect(pageIdOf('/pages/123')).toBe('123');
    expect(pageIdOf('/pages/123/feed?after=x')).toBe('123');
    expect(pageIdOf('/pages')).toBeUndefined();
  });
});
