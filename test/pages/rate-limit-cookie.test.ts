import request from 'supertest';
import { sessionCookie, signIn } from '../support/flow';
import { agentFor, useStack } from '../support/stack';

/**
 * The per-session limit counts a session, whichever way its cookie is spelled: express-session reads
 * `name =value`, a quoted value and percent-encoding as the same cookie, so the limit must too
 * (docs/architecture.md#fairness-between-sessions).
 */
describe('SESSION_RATE_LIMIT and the spelling of the session cookie', () => {
  const stack = useStack({ env: { SESSION_RATE_LIMIT: '5' } });

  it('when one session’s cookie is sent in five spellings, then they share one count and the sixth request is refused', async () => {
    const agent = agentFor(stack);
    const done = await signIn(agent);
    const cookie = sessionCookie(done)!;
    const value = cookie.slice('pagelight='.length);
    const decoded = decodeURIComponent(value);
    const spellings = [
      `pagelight=${value}`,
      `pagelight =${value}`,
      `pagelight="${value}"`,
      `pagelight=${decoded.replace(/:/g, '%3a')}`,
      `other=1; pagelight=${encodeURIComponent(decoded).replace(/\./g, '%2E')}`,
    ];
    for (const spelled of spellings) await request(stack.app).get('/pages').set('cookie', spelled).expect(200);
    const refused = await request(stack.app).get('/pages').set('cookie', `pagelight= ${value}`).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('when a cookie names no session this app signed, then it is not counted against anyone (it reaches nothing upstream)', async () => {
    for (let i = 0; i < 8; i++)
      await request(stack.app).get('/pages').set('cookie', `pagelight=s%3Aforged${i}.bad`).expect(401);
  });
});
