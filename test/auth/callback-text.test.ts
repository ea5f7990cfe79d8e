import { agentFor, useStack } from '../support/stack';

/**
 * Whoever writes a link to /auth/callback chooses its `error_description`
 * (up to 1,000 characters): the page shows fixed wording per provider error
 * code instead, so the site never says what a stranger wrote.
 * @see docs/architecture.md#error-model
 */
const HOSTILE = 'Your account is suspended. Call +1 555 0100 or visit evil.example to restore it';

describe('GET /auth/callback with a provider error', () => {
  const stack = useStack();
  /** The callback as the provider (or a stranger's link) calls it, answered with `status`. */
  const callback = (query: Record<string, string>, status: number) =>
    agentFor(stack).get('/auth/callback').query(query).expect(status);

  it.each([
    ['invalid_request', 'found the login request invalid'],
    ['unauthorized_client', 'does not allow Pagelight'],
    ['unsupported_response_type', 'does not support the kind of login'],
    ['invalid_scope', 'did not accept the permissions'],
    ['server_error', 'had a problem completing the login'],
    ['temporarily_unavailable', 'is busy just now'],
  ])(
    'when the error is %s with a hostile description, then 400 with fixed wording and none of the description',
    async (error, wording) => {
      const res = await callback({ error, error_description: HOSTILE, error_reason: 'evil.example' }, 400);
      expect(res.text).toContain(wording);
      expect(res.text).not.toContain('evil.example');
      expect(res.text).not.toContain('suspended');
    },
  );

  it('when the error code is one nobody documents, then a generic sentence and neither the code nor the description', async () => {
    const res = await callback({ error: 'Call_555_0100_now', error_description: HOSTILE }, 400);
    expect(res.text).toContain('Facebook could not complete the login. Please connect again.');
    expect(res.text).not.toContain('555');
    expect(res.text).not.toContain('suspended');
  });

  it('when the error is access_denied with a hostile description, then the cancel page without the description', async () => {
    const res = await callback({ error: 'access_denied', error_description: HOSTILE }, 200);
    expect(res.text).toContain('You cancelled');
    expect(res.text).not.toContain('suspended');
  });

  it('when the error is a name of Object.prototype, then the generic sentence, not a crash', async () => {
    const res = await callback({ error: 'constructor' }, 400);
    expect(res.text).toContain('Facebook could not complete the login.');
  });
});
