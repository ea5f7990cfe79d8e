import { classifyGraphCode, GraphApiError } from '../../src/graph/errors';

const body = (code: number, message = 'x', subcode?: number) => ({
  code,
  message,
  type: 'OAuthException',
  subcode,
  fbtraceId: 'Atrace',
});

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
    expect(
      new GraphApiError(body(10, "(#10) This endpoint requires the 'pages_read_user_content' permission"), 403)
        .permission,
    ).toBe('pages_read_user_content');
    expect(
      new GraphApiError(body(200, '(#200) Requires pages_show_list permission to manage the object'), 403).permission,
    ).toBe('pages_show_list');
    expect(new GraphApiError(body(190, 'Error validating access token'), 400).permission).toBeUndefined();
  });
});
