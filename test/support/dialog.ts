/**
 * Drives the emulator's login dialog over real HTTP the way a browser would:
 * load the page, read its form, submit it with Continue or Cancel.
 */

export interface DialogChoice {
  /** Which seeded person to sign in as (the radio's value); the first by default. */
  user?: string;
  /** Permissions, or Pages at the page step (by id), to uncheck before Continue. */
  decline?: string[];
  action?: 'continue' | 'cancel';
}

interface ParsedForm {
  action: string;
  fields: [string, string][];
  buttons: { name: string; value: string; label: string }[];
  radios: { name: string; value: string }[];
}

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
  return m ? decode(m[1]!) : undefined;
};

function decode(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function parseDialogForm(html: string, choice: DialogChoice): ParsedForm {
  const formTag = /<form\b[^>]*>/i.exec(html);
  if (!formTag) throw new Error(`no form in the dialog page: ${html.slice(0, 300)}`);
  const fields: [string, string][] = [];
  const radios: { name: string; value: string }[] = [];
  for (const [tag] of html.matchAll(/<input\b[^>]*>/gi)) {
    const type = (attr(tag, 'type') ?? 'text').toLowerCase();
    const name = attr(tag, 'name');
    const value = attr(tag, 'value') ?? 'on';
    if (!name) continue;
    if (type === 'radio') radios.push({ name, value });
    else if (type === 'checkbox') {
      if (/\schecked\b/i.test(tag) && !(choice.decline ?? []).includes(value)) fields.push([name, value]);
    } else if (type !== 'submit') fields.push([name, value]);
  }
  const buttons = [...html.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)].map((m) => ({
    name: attr(m[0], 'name') ?? '',
    value: attr(m[0], 'value') ?? '',
    label: m[2]!.replace(/<[^>]+>/g, '').trim(),
  }));
  return { action: attr(formTag[0], 'action') ?? '', fields, buttons, radios };
}

/** Opens the dialog URL, submits the form, returns the redirect target (the app's callback URL). */
export async function completeDialog(dialogUrl: string, choice: DialogChoice = {}): Promise<URL> {
  const page = await fetch(dialogUrl, { redirect: 'manual' });
  if (page.status !== 200) throw new Error(`dialog answered ${page.status}: ${await page.text()}`);
  const form = parseDialogForm(await page.text(), choice);
  const body = new URLSearchParams(form.fields);
  const userRadios = form.radios;
  if (userRadios.length > 0) {
    const pick = choice.user ? userRadios.find((r) => r.value === choice.user) : userRadios[0];
    if (!pick) throw new Error(`no seeded user ${choice.user}; have ${userRadios.map((r) => r.value).join(', ')}`);
    body.append(pick.name, pick.value);
  }
  const wanted = choice.action === 'cancel' ? /cancel/i : /continue/i;
  const button = form.buttons.find((b) => wanted.test(b.label));
  if (!button) throw new Error(`no ${choice.action ?? 'continue'} button in ${JSON.stringify(form.buttons)}`);
  if (button.name) body.append(button.name, button.value);
  const target = new URL(form.action, dialogUrl);
  const res = await fetch(target, {
    method: 'POST',
    body,
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const location = res.headers.get('location');
  if (res.status !== 302 && res.status !== 303)
    throw new Error(`dialog submit answered ${res.status}: ${await res.text()}`);
  if (!location) throw new Error('dialog submit gave no redirect');
  return new URL(location);
}
