import { CookieClient } from './cookieClient';
import { completeDialog } from './dialog';

export interface LoginOutcome {
  ok: boolean;
  step: string;
  status?: number;
  /** The <h1> of the page the session finally saw. */
  pageName?: string;
  /** Page ids the picker offered this session. */
  offered: string[];
}

/**
 * One person's whole flow over real HTTP with their own cookie jar: login, pick, connect, view.
 * `user` is the seeded person to sign in as at the dialog; the first offered when undefined.
 */
export async function realLogin(
  base: string,
  user: string | undefined,
  pageId: string,
  browser = new CookieClient(base),
  /** Permissions to untick at the dialog. */
  decline: string[] = [],
): Promise<LoginOutcome> {
  const offered: string[] = [];
  const fail = (step: string, status?: number): LoginOutcome => ({ ok: false, step, status, offered });
  const start = await browser.get('/auth/login');
  if (start.status !== 303) return fail('login', start.status);
  const callback = await completeDialog(start.headers.get('location')!, {
    ...(user === undefined ? {} : { user }),
    decline,
  });
  const done = await browser.get(`${callback.pathname}${callback.search}`);
  if (done.status !== 303) return fail('callback', done.status);
  const picker = await browser.get('/pages');
  const html = await picker.text();
  if (picker.status !== 200) return fail('picker', picker.status);
  offered.push(...[...html.matchAll(/action="\/pages\/(\d+)\/connect"/g)].map((m) => m[1]!));
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!csrf) return fail('csrf');
  const connect = await browser.post(`/pages/${pageId}/connect`, { _csrf: csrf });
  if (connect.status !== 303) return fail('connect', connect.status);
  const page = await browser.get(`/pages/${pageId}`);
  if (page.status !== 200) return fail('page', page.status);
  const pageName = /<h1>([^<]*)<\/h1>/.exec(await page.text())?.[1];
  return { ok: true, step: 'done', pageName, offered };
}
