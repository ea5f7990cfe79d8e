import { redactText } from '../../src/log/redact';

describe('redactText', () => {
  it('when a URL carries credentials, then each of them is replaced', () => {
    const text =
      'GET https://graph.example/v1/oauth/access_token?client_id=1&client_secret=s3cr3t&code=AQBcode&redirect_uri=x&appsecret_proof=abc123';
    const out = redactText(text);
    expect(out).not.toMatch(/s3cr3t|AQBcode|abc123/);
    expect(out).toContain('client_id=1');
  });
  it('when a dialog URL or a token answer carries the OIDC nonce or id_token, then they are replaced', () => {
    const out = redactText('dialog?state=s1&nonce=n0nce-value&x=1 then {"id_token=eyJhbGciOi.payload.sig"}');
    expect(out).not.toMatch(/n0nce-value|eyJhbGciOi/);
    expect(out).toContain('x=1');
  });
  it('when a bearer header or a Graph token appears, then it is replaced', () => {
    expect(redactText('Authorization: Bearer EAAabcdefghijklmnopqrstu')).toBe('Authorization: Bearer [redacted]');
    expect(redactText('token EAAabcdefghijklmnopqrstuvwxyz here')).toBe('token [redacted] here');
  });
  it('when known secrets are given, then they are removed wherever they appear', () => {
    expect(redactText('secret is my-app-secret!', ['my-app-secret'])).toBe('secret is [redacted]!');
  });
});
