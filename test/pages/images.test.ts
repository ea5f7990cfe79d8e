import { imageFilter } from '../../src/pages/images';

/** Only images the CSP allows are rendered (docs/architecture.md#images). */
describe('the image origin filter', () => {
  const allowed = imageFilter(['https://*.fbcdn.net', 'https://platform-lookaside.fbsbx.com', 'http://127.0.0.1:3001']);

  it('when a URL is on a listed origin or a subdomain of a wildcard one, then it is kept', () => {
    expect(allowed('https://scontent-lhr8-1.xx.fbcdn.net/v/t39/1.jpg?oh=a&oe=b')).toBe(
      'https://scontent-lhr8-1.xx.fbcdn.net/v/t39/1.jpg?oh=a&oe=b',
    );
    expect(allowed('https://platform-lookaside.fbsbx.com/platform/profilepic/?psid=1')).toBeDefined();
    expect(allowed('http://127.0.0.1:3001/media/x.svg')).toBeDefined();
  });

  it('when a URL is on another scheme, host, port, the bare wildcard host or carries credentials, then it is dropped', () => {
    for (const url of [
      'http://scontent.xx.fbcdn.net/1.jpg',
      'https://fbcdn.net/1.jpg',
      'https://fbcdn.net.evil.example/1.jpg',
      'https://evilfbcdn.net/1.jpg',
      'https://scontent.xx.fbcdn.net:8443/1.jpg',
      'http://127.0.0.1:3002/media/x.svg',
      'https://user:pw@scontent.xx.fbcdn.net/1.jpg',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '/media/x.svg',
      'not a url',
    ]) {
      expect(allowed(url)).toBeUndefined();
    }
    expect(allowed(undefined)).toBeUndefined();
  });

  it('when no origin is listed, then no image is shown', () => {
    expect(imageFilter([])('https://scontent.xx.fbcdn.net/1.jpg')).toBeUndefined();
  });
});
