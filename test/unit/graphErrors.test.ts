import { classifyGraphCode, GraphApiError } from '../../src/graph/errors';
import { redactText } from '../../src/log/redact';

const body = (code: number, message = 'x', subcode?: number) => ({ code, message, type: 'OAuthException', subcode, fbtraceId: 'Atrace' });

describe('Graph error mapping', () => {
  it.each([
    [190, 'token', 401],
    [102, 'token', 401],
    [10, 'permission', 403],
    [200, 'permission', 403],
    [299, 'permission', 403],
    [210, 'permission', 403],
    [4, 'rate_limit', 429],
    [17, 'rate_limit', 429],
    [32, 'rate_limit', 429],
    [613, 'rate_limit', 429],
    [1, 'transient', 502],
    [2, 'transient', 502],
    [100, 'invalid', 502],
    [12345, 'other', 502],
  ])('when the code is %i, then the kind is %s and the status %i', (code, kind, status) => {
    expect(classifyGraphCode(code)).toBe(kind);
    const err = new GraphApiError(body(code), 400);
    expect(err.kind).toBe(kind);
    expect(err.status).toBe(status);
    expect(err.code).toBe(`graph_${kind}`);
  });

  it('when a permission error names the permission, then it is picked out', () => {
    expect(new GraphApiError(body(10, "(#10) This endpoint requires the 'pages_read_user_content' permission"), 403).permission).toBe(
      'pages_read_user_content',
    );
    expect(new GraphApiError(body(200, '(#200) Requires pages_show_list permission to manage the object'), 403).permission).toBe('pages_show_list');
    expect(new GraphApiError(body(190, 'Error validating access token'), 400).permission).toBeUndefined();
  });
});

describe('redactText', () => {
  it('when a URL carries credentials, then each of them is replaced', () => {
    const text = 'GET https://graph.example/v1/oauth/access_token?client_id=1&client_secret=s3cr3t&code=AQBcode&redirect_uri=x&appsecret_proof=abc123';
    const out = redactText(text);
    expect(out).not.toMatch(/s3cr3t|AQBcode|abc123/);
    expect(out).toContain('client_id=1');
  });
  it('when a bearer header or a Graph token appears, then it is replaced', () => {
    expect(redactText('Authorization: Bearer EAAabcdefghijklmnopqrstu')).toBe('Authorization: Bearer [redacted]');
    expect(redactText('token EAAabcdefghijklmnopqrstuvwxyz here')).toBe('token [redacted] here');
  });
  it('when known secrets are given, then they are removed wherever they appear', () => {
    expect(redactText('secret is my-app-secret!', ['my-app-secret'])).toBe('secret is [redacted]!');
  });
});
