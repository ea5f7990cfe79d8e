import { agentFor, type Agent, type Stack } from './stack';
import type { DialogChoice } from './dialog';
import { attr, findAll } from './dom';
import { signInThrough, signInAndConnectThrough, overSupertest } from './login';

export { csrfFrom, pathOf } from './login';

/** GET /auth/login → the dialog URL the app redirects to. */
export async function startLogin(agent: Agent, query = ''): Promise<string> {
  const res = await agent.get(`/auth/login${query}`).expect(303);
  return res.headers.location as string;
}

/** Signs in over supertest: app → dialog → Continue → callback. Returns the callback's supertest response. */
export async function signIn(agent: Agent, choice: DialogChoice = {}) {
  return (await signInThrough(overSupertest(agent), choice)).raw;
}

/** Signs in and connects one page through the picker over supertest, as a person would; throws at a failed step. */
export async function signInAndConnect(agent: Agent, pageId: string, choice: DialogChoice = {}): Promise<void> {
  const outcome = await signInAndConnectThrough(overSupertest(agent), pageId, choice);
  if (!outcome.ok)
    throw new Error(`login ended at ${outcome.step} with ${outcome.status}: ${outcome.text?.slice(0, 500)}`);
}

/** A new person (their own cookie jar) logged in with `choice`, at the picker with no page connected yet. */
export async function signedInAgent(stack: Stack, choice: DialogChoice = {}): Promise<Agent> {
  const agent = agentFor(stack);
  await signIn(agent, choice);
  return agent;
}

/** A new person (their own cookie jar) logged in with `choice` and connected to `pageId`. */
export async function connectedAgent(stack: Stack, pageId: string, choice: DialogChoice = {}): Promise<Agent> {
  const agent = agentFor(stack);
  await signInAndConnect(agent, pageId, choice);
  return agent;
}

export function sessionCookie(res: { headers: Record<string, unknown> }): string | undefined {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  return cookies.find((c) => c.startsWith('pagelight='))?.split(';')[0];
}

/** The post ids rendered on a feed page, in order. */
export function postIds(html: string): string[] {
  return findAll(html, (node) => /^post-[\d_]+$/.test(attr(node, 'id') ?? '')).map((node) =>
    attr(node, 'id')!.slice(5),
  );
}
