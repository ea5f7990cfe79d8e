import { SEED_IDS, type Failure } from '../../src/provider';
import { graphCalls } from '../helpers/emulator';
import { loginAndConnect } from '../helpers/flow';
import { agentFor, startStack, type Stack } from '../helpers/stack';

const BAKERY = SEED_IDS.pages.bakery;

/** Each fault the provider can throw at a page view, the page the person gets, and a healthy process after. */
const FAULTS: [string, number, Failure, RegExp][] = [
  ['latency beyond the timeout', 504, { kind: 'slow', ms: 3000 }, /taking too long/],
  ['a hung connection', 504, { kind: 'hang' }, /taking too long/],
  ['a 503 HTML page', 502, { kind: 'http', status: 503, body: '<html>Service Unavailable</html>' }, /not answering/],
  ['a 200 that is not JSON', 502, { kind: 'http', status: 200, body: 'this is not json' }, /not answering/],
  ['a 200 JSON of the wrong shape', 502, { kind: 'http', status: 200, body: '{"data":"nope"}', contentType: 'application/json' }, /not answering/],
  ['a connection reset', 502, { kind: 'reset' }, /not answering/],
  ['an unknown error (code 1)', 502, { status: 500, error: { code: 1, message: 'An unknown error occurred' } }, /had a problem/],
  ['a transient error (code 2)', 502, { status: 503, error: { code: 2, message: 'Service temporarily unavailable' } }, /had a problem/],
  ['app throttling (code 4)', 429, { status: 403, error: { code: 4, message: '(#4) Application request limit reached' } }, /try again/],
  ['user throttling (code 17)', 429, { status: 403, error: { code: 17, message: '(#17) User request limit reached' } }, /try again/],
  ['page throttling (code 32)', 429, { status: 403, error: { code: 32, message: '(#32) Page request limit reached' } }, /try again/],
  ['call-specific throttling (code 613)', 429, { status: 403, error: { code: 613, message: 'Calls to this api have exceeded the rate limit.' } }, /try again/],
  ['a permission error (code 200)', 403, { status: 403, error: { code: 200, message: '(#200) Requires pages_read_engagement permission to manage the object' } }, /pages_read_engagement/],
];

describe('faults injected by the provider during a page view', () => {
  let stack: Stack;
  let agent: ReturnType<typeof agentFor>;
  beforeAll(async () => {
    stack = await startStack({ timeoutMs: 300 });
    agent = agentFor(stack);
    await loginAndConnect(agent, BAKERY);
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.emulator.controls.reset());

  it.each(FAULTS)('when the provider gives %s, then %i with a clear page, and the process stays healthy', async (_name, status, failure, text) => {
    stack.emulator.controls.failNext(6, failure);
    const started = Date.now();
    const res = await agent.get(`/pages/${BAKERY}`);
    expect(res.status).toBe(status);
    expect(res.text).toMatch(text);
    expect(Date.now() - started).toBeLessThan(5000);
    if (status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    stack.emulator.controls.reset();
    await agent.get('/healthz').expect(200);
    await agent.get(`/pages/${BAKERY}`).expect(200);
  });

  it('when the tokens are revoked mid-session, then the person is sent home to connect again, and can', async () => {
    const person = agentFor(stack);
    await loginAndConnect(person, BAKERY);
    stack.emulator.controls.revokeTokens({ reason: 'password_changed' });
    await person.get(`/pages/${BAKERY}`).expect(303).expect('location', '/');
    expect((await person.get('/')).text).toContain('Your connection expired');
    await loginAndConnect(person, BAKERY);
    await person.get(`/pages/${BAKERY}`).expect(200);
  });

  it('when the provider reports the page budget used up, then the app holds back further reads itself with 429 and Retry-After', async () => {
    const person = agentFor(stack);
    await loginAndConnect(person, SEED_IDS.pages.sparse);
    stack.emulator.controls.setRateLimit({ calls: 3, windowMs: 60_000 });
    let limited = false;
    for (let i = 0; i < 6 && !limited; i++) limited = (await person.get(`/pages/${SEED_IDS.pages.sparse}`)).status === 429;
    expect(limited).toBe(true);
    const before = graphCalls(stack);
    const res = await person.get(`/pages/${SEED_IDS.pages.sparse}`).expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(graphCalls(stack)).toBe(before);
  });
});
