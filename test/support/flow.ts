import type { Agent } from './stack';
import { completeDialog, type DialogChoice } from './dialog';

/** GET /auth/login → the dialog URL the app redirects to. */
export async function startLogin(agent: Agent, query = ''): Promise<string> {
  const res = await agent.get(`/auth/login${query}`).expect(303);
  return res.headers.location as string;
}

/** The callback URL as a path for supertest (the app is not listening). */
export function pathOf(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/** The whole login: app → dialog → Continue → callback. Returns the callback's response. */
export async function login(agent: Agent, choice: DialogChoice = {}) {
  const dialogUrl = await startLogin(agent);
  const callback = await completeDialog(dialogUrl, choice);
  return agent.get(pathOf(callback));
}

export function csrfFrom(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no CSRF token in the page: ${html.slice(0, 200)}`);
  return m[1]!;
}

/** Logs in and connects one page through the picker, as a person would. */
export async function loginAndConnect(agent: Agent, pageId: string, choice: DialogChoice = {}) {
  await login(agent, choice).then((r) => {
    if (r.status !== 303) throw new Error(`login ended with ${r.status}: ${r.text.slice(0, 500)}`);
  });
  const picker = await agent.get('/pages').expect(200);
  await agent
    .post(`/pages/${pageId}/connect`)
    .type('form')
    .send({ _csrf: csrfFrom(picker.text) })
    .expect(303);
}

export function sessionCookie(res: { headers: Record<string, unknown> }): string | undefined {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  return cookies.find((c) => c.startsWith('pagelight='))?.split(';')[0];
}

/** The post ids rendered on a feed page, in order. */
export function postIds(html: string): string[] {
  return [...html.matchAll(/id="post-([\d_]+)"/g)].map((m) => m[1]!);
}
