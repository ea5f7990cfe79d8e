/**
 * What a person's browser does at the login dialog, over a real socket with fetch: opens the dialog URL a
 * client library built, keeps every box checked and continues as `user`. Returns where the dialog sends
 * the browser back (the client's callback URL, with the code).
 */
import { requestIdOf } from '../helpers';
import { attr, find, inputsNamed } from '../dom';

export async function approveAtDialog(dialogUrl: string, user: string): Promise<URL> {
  const page = await fetch(dialogUrl, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`the dialog answered ${page.status}: ${html.slice(0, 300)}`);
  const form = new URLSearchParams({ request_id: requestIdOf(html), decision: 'continue', user_id: user });
  // The person's own boxes: what the app asks of them and their Pages, all left checked.
  for (const name of [`perm_${user}`, `page_${user}`]) {
    for (const input of inputsNamed(html, name)) form.append(name, input.value ?? '');
  }
  const action = attr(find(html, 'form')!, 'action') ?? '';
  const decided = await fetch(new URL(action, dialogUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const location = decided.headers.get('location');
  if (decided.status !== 302 || location === null) {
    throw new Error(`the dialog's decision answered ${decided.status}: ${(await decided.text()).slice(0, 300)}`);
  }
  return new URL(location);
}
