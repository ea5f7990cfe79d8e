import { agentFor, useStack } from '../support/stack';

/**
 * The 404 page does not repeat the path: a link's author would choose text
 * the site appears to say.
 * @see docs/architecture.md#error-model
 */
describe('a path nothing serves', () => {
  const stack = useStack();

  it('when the path carries a message, then 404 with fixed wording and none of the path', async () => {
    const path = '/Your-account-is-suspended--call-555-0100-or-visit-evil.example';
    const res = await agentFor(stack).get(path).expect(404);
    expect(res.text).toContain('There is nothing at this address.');
    expect(res.text).not.toContain('suspended');
    expect(res.text).not.toContain('evil.example');
  });
});
