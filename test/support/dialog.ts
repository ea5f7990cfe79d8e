/**
 * Drives the emulator's login dialog over real HTTP the way a browser would:
 * load the page, read its form, submit it with Continue or Cancel.
 */
import { forms } from './dom';

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

export function parseDialogForm(html: string, choice: DialogChoice): ParsedForm {
  const form = forms(html)[0];
  if (!form) throw new Error(`no form in the dialog page: ${html.slice(0, 300)}`);
  const fields: [string, string][] = [];
  const radios: { name: string; value: string }[] = [];
  for (const field of form.fields) {
    const value = field.value ?? 'on';
    if (!field.name || field.tag !== 'input') continue;
    if (field.type === 'radio') radios.push({ name: field.name, value });
    else if (field.type === 'checkbox') {
      if (field.checked && !(choice.decline ?? []).includes(value)) fields.push([field.name, value]);
    } else if (field.type !== 'submit') fields.push([field.name, value]);
  }
  const buttons = form.buttons.map((b) => ({ name: b.name ?? '', value: b.value ?? '', label: b.text }));
  return { action: form.action ?? '', fields, buttons, radios };
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
