import { SEED_IDS } from '@pagelight/graph-emulator';
import { completeDialog } from '../support/dialog';
import { connectedAgent, pathOf, signedInAgent, startLogin } from '../support/flow';
import { agentFor, startStack, type Stack, useStack } from '../support/stack';
import { tokenCalls } from '../support/emulator';
import { links } from '../support/dom';
import { hrefOf, operatorText, visibleText } from '../support/words';

const BAKERY = SEED_IDS.pages.bakery;

/** Every [callback outcome](docs/provider-interface.md#at-the-callback), as the person meets it. */
describe('GET /auth/callback', () => {
  let stack: Stack;
  let clock = Date.now();
  beforeAll(async () => {
    stack = await startStack({ now: () => clock, timeoutMs: 400 });
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    clock = Date.now();
    stack.emulator.controls.reset();
  });

  async function approvedCallback(agent: ReturnType<typeof agentFor>): Promise<URL> {
    return completeDialog(await startLogin(agent));
  }

  it('when the person cancels at the dialog, then a friendly page offers to connect again and the state is consumed', async () => {
    const agent = agentFor(stack);
    const dialog = await startLogin(agent);
    const cancel = await completeDialog(dialog, { action: 'cancel' });
    expect(cancel.searchParams.get('error')).toBe('access_denied');
    const res = await agent.get(pathOf(cancel)).expect(200);
    expect(res.text).toContain('You cancelled');
    expect(hrefOf(res.text, 'Connect again')).toBe('/auth/login');
    // The same state cannot be used afterwards.
    const state = cancel.searchParams.get('state')!;
    await agent.get(`/auth/callback?code=abc&state=${encodeURIComponent(state)}`).expect(403);
    expect(tokenCalls(stack)).toBe(0);
  });

  it('when the provider returns another error, then a 400 page with fixed wording, not its description', async () => {
    const agent = agentFor(stack);
    const res = await agent
      .get('/auth/callback?error=server_error&error_description=%3Cb%3Eboom%3C%2Fb%3E')
      .expect(400);
    expect(res.text).toContain('Facebook had a problem completing the login.');
    expect(res.text).not.toContain('boom');
  });

  it('when the state is missing, then 403 "could not be verified", no token request, and the stored state is consumed', async () => {
    const agent = agentFor(stack);
    const callback = await approvedCallback(agent);
    const res = await agent.get(`/auth/callback?code=${callback.searchParams.get('code')}`).expect(403);
    expect(res.text).toContain('This login request could not be verified');
    await agent.get(pathOf(callback)).expect(403);
    expect(tokenCalls(stack)).toBe(0);
  });

  it('when no state was stored (another browser), then 403 and no token request', async () => {
    const callback = await approvedCallback(agentFor(stack));
    await agentFor(stack).get(pathOf(callback)).expect(403);
    expect(tokenCalls(stack)).toBe(0);
  });

  it('when the state does not match, then 403, no token request, and the real state is consumed too', async () => {
    const agent = agentFor(stack);
    const callback = await approvedCallback(agent);
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state-value');
    await agent.get(pathOf(forged)).expect(403);
    await agent.get(pathOf(callback)).expect(403);
    expect(tokenCalls(stack)).toBe(0);
  });

  it('when the state is older than 10 minutes, then 403 and no token request', async () => {
    const agent = agentFor(stack);
    const callback = await approvedCallback(agent);
    clock += 10 * 60 * 1000 + 1;
    const res = await agent.get(pathOf(callback)).expect(403);
    expect(res.text).toContain('10 minutes');
    expect(tokenCalls(stack)).toBe(0);
  });

  it.each([
    ['missing', (u: URL) => u.searchParams.delete('code')],
    ['empty', (u: URL) => u.searchParams.set('code', '')],
    ['repeated', (u: URL) => u.searchParams.append('code', 'second')],
  ])('when the code is %s, then 400 and no upstream call', async (_name, mutate) => {
    const agent = agentFor(stack);
    const callback = await approvedCallback(agent);
    mutate(callback);
    await agent.get(pathOf(callback)).expect(400);
    expect(tokenCalls(stack)).toBe(0);
  });

  it('when the state is repeated, then 400 and no upstream call', async () => {
    const agent = agentFor(stack);
    const callback = await approvedCallback(agent);
    callback.searchParams.append('state', 'again');
    await agent.get(pathOf(callback)).expect(400);
    expect(tokenCalls(stack)).toBe(0);
  });

  it('when the provider refuses the code (already used), then 400 with its reason and nothing secret', async () => {
    const first = agentFor(stack);
    const callback = await approvedCallback(first);
    const code = callback.searchParams.get('code')!;
    await first.get(pathOf(callback)).expect(303);
    // A second tab replays the same code with a state of its own.
    const second = agentFor(stack);
    const replay = await approvedCallback(second);
    replay.searchParams.set('code', code);
    const res = await second.get(pathOf(replay)).expect(400);
    // In people's words, and the provider's reason for the operator.
    expect(res.text).toContain('the link was used already');
    expect(operatorText(res.text)).toContain('This authorization code has been used');
    expect(res.text).not.toContain(code);
    expect(res.text).not.toContain(stack.config.appSecret);
  });

  it('when the provider is unreachable, then 502, the process stays up and the session is kept', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const callback = await approvedCallback(agent);
    stack.emulator.controls.failNext(5, { kind: 'reset' });
    const res = await agent.get(pathOf(callback)).expect(502);
    expect(visibleText(res.text)).toContain("We couldn't reach Facebook — Try again");
    stack.emulator.controls.reset();
    await agent.get(`/pages/${BAKERY}`).expect(200);
  });

  it('when the provider does not answer in time, then 504 within the bound', async () => {
    const agent = agentFor(stack);
    const callback = await approvedCallback(agent);
    stack.emulator.controls.failNext(1, { kind: 'hang' });
    const started = performance.now();
    await agent.get(pathOf(callback)).expect(504);
    // A hung provider never answers, so an answer at all is the bound at work; that it is the provider
    // timeout (400 ms here) and not an early failure shows in the wait, which only a slow machine lengthens.
    expect(performance.now() - started).toBeGreaterThanOrEqual(stack.config.providerTimeoutMs - 5);
  });

  it('when the provider answers with something that is not JSON, then 502', async () => {
    const agent = agentFor(stack);
    const callback = await approvedCallback(agent);
    stack.emulator.controls.failNext(1, { kind: 'http', status: 200, body: '<html>maintenance</html>' });
    await agent.get(pathOf(callback)).expect(502);
  });

  it('when the login succeeds, then 303 to the picker, and the code appears in no page the app renders', async () => {
    const agent = agentFor(stack);
    const callback = await approvedCallback(agent);
    const code = callback.searchParams.get('code')!;
    const res = await agent.get(pathOf(callback)).expect(303);
    expect(res.headers.location).toBe('/pages');
    expect(res.text).not.toContain(code);
    for (const path of ['/', '/pages']) expect((await agent.get(path)).text).not.toContain(code);
    expect(tokenCalls(stack)).toBeGreaterThanOrEqual(1);
  });

  it('when two tabs start the flow, then both complete', async () => {
    const agent = agentFor(stack);
    const tabA = await approvedCallback(agent);
    const tabB = await approvedCallback(agent);
    await agent.get(pathOf(tabB)).expect(303);
    await agent.get(pathOf(tabA)).expect(303);
  });
});

describe('declined permissions at the dialog', () => {
  // A stack per test: the provider remembers what a person declined and does not ask again
  // without auth_type=rerequest (docs/provider-interface.md#login-dialog).
  const stack = useStack({}, { perTest: true });

  it('when the person unchecks a permission the app asks for, then the picker names it and offers to ask again with auth_type=rerequest', async () => {
    const agent = await signedInAgent(stack, { decline: ['pages_read_engagement'] });
    const picker = await agent.get('/pages').expect(200);
    expect(visibleText(picker.text)).toContain("You didn't allow “Read your Page's posts and details”");
    expect(links(picker.text).map((l) => l.href)).toContain('/auth/login?rerequest=1');
  });

  it('when every permission is granted, then no such notice', async () => {
    const agent = await signedInAgent(stack);
    expect(visibleText((await agent.get('/pages').expect(200)).text)).not.toContain("You didn't allow");
  });
});
