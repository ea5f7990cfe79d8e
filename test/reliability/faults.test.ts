import { SEED_IDS } from '@pagelight/graph-emulator';
import { FAULTS } from '../support/faults';
import { visibleText } from '../support/words';
import { graphCalls } from '../support/emulator';
import { signInAndConnect, connectedAgent } from '../support/flow';
import { agentFor, startStack, type Stack } from '../support/stack';

const BAKERY = SEED_IDS.pages.bakery;

describe('faults injected by the provider during a page view', () => {
  let stack: Stack;
  let agent: ReturnType<typeof agentFor>;
  beforeAll(async () => {
    stack = await startStack({ timeoutMs: 300 });
    agent = agentFor(stack);
    await signInAndConnect(agent, BAKERY);
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.emulator.controls.reset());

  it.each(FAULTS)(
    'when the provider gives %s, then %i with a clear page, and the process stays healthy',
    async (_name, status, failure, text) => {
      stack.emulator.controls.failNext(6, failure);
      // No clock here: a slow or hung provider would have given a 200 or no answer at all, so the
      // page of the fault is itself the proof that the app stopped waiting (docs/architecture.md#error-model).
      const res = await agent.get(`/pages/${BAKERY}`);
      expect(res.status).toBe(status);
      expect(visibleText(res.text)).toMatch(text);
      if (status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      stack.emulator.controls.reset();
      await agent.get('/healthz').expect(200);
      await agent.get(`/pages/${BAKERY}`).expect(200);
    },
  );

  it('when the tokens are revoked mid-session, then the person is sent home to connect again, and can', async () => {
    const person = await connectedAgent(stack, BAKERY);
    stack.emulator.controls.revokeTokens({ reason: 'password_changed' });
    await person
      .get(`/pages/${BAKERY}`)
      .expect(303)
      .expect('location', `/?return_to=${encodeURIComponent(`/pages/${BAKERY}`)}`);
    expect((await person.get('/')).text).toContain(
      'Facebook signed you out of Pagelight — connect again. Your Facebook password was changed',
    );
    await signInAndConnect(person, BAKERY);
    await person.get(`/pages/${BAKERY}`).expect(200);
  });

  it('when the provider reports the page budget used up, then the app holds back further reads itself with 429 and Retry-After', async () => {
    const person = await connectedAgent(stack, SEED_IDS.pages.sparse);
    stack.emulator.controls.setRateLimit({ calls: 3, windowMs: 60_000 });
    let limited = false;
    for (let i = 0; i < 6 && !limited; i++)
      limited = (await person.get(`/pages/${SEED_IDS.pages.sparse}`)).status === 429;
    expect(limited).toBe(true);
    const before = graphCalls(stack);
    const res = await person.get(`/pages/${SEED_IDS.pages.sparse}`).expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(graphCalls(stack)).toBe(before);
  });
});
