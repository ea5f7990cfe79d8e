/**
 * A person removes Pagelight from the provider's "Apps and Websites" settings
 * (the emulator's page, packages/graph-emulator/README.md#removing-an-app)
 * while a Pagelight tab is open. The emulator revokes the person's tokens and
 * sends the signed deauthorize and data-deletion callbacks to the app.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { SEED_IDS, type CallbackDelivery } from '@pagelight/graph-emulator';
import { control } from '../support/emulator';
import { axeProblems, browsing, Stack } from './harness';

const BAKERY = SEED_IDS.pages.bakery;
const BAKERY_NAME = 'Lovelace Analytical Bakery';

const stack = new Stack();
const browser = browsing(stack);
let context: BrowserContext;
let appTab: Page;
beforeEach(async () => {
  ({ context, page: appTab } = browser);
  await control(stack.providerUrl, 'POST', '/reset', {});
});

/** Ada signs in through the dialog and connects the bakery. */
async function connectBakery(p: Page): Promise<void> {
  await p.goto(`${stack.appUrl}/`);
  await p.getByRole('link', { name: 'Connect page' }).click();
  await p.getByRole('radio', { name: /Ada Lovelace/ }).check();
  await p.getByRole('button', { name: 'Continue' }).click();
  await p.waitForURL(`${stack.appUrl}/pages`);
  await p.getByRole('button', { name: `Connect ${BAKERY_NAME}` }).click();
  await p.waitForURL(`${stack.appUrl}/pages/${BAKERY}`);
}

/** In another tab: the provider's settings page, "Remove and request deletion" on Pagelight. */
async function removeFromSettings(): Promise<Page> {
  const settings = await context.newPage();
  await settings.goto(`${stack.providerUrl}/settings/apps?user=${SEED_IDS.users.ada}`);
  await expect(settings.getByRole('heading', { level: 2 }).allInnerTexts()).resolves.toEqual(['Pagelight']);
  expect(await axeProblems(settings)).toEqual([]);
  await settings.getByRole('button', { name: 'Remove and request deletion' }).click();
  await settings.waitForURL(`${stack.providerUrl}/settings/apps/remove`);
  await expect(settings.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Pagelight removed');
  expect(await axeProblems(settings)).toEqual([]);
  return settings;
}

async function deliveries(): Promise<CallbackDelivery[]> {
  return ((await control(stack.providerUrl, 'GET', '/callbacks')) as { data: CallbackDelivery[] }).data;
}

test('when Ada removes Pagelight at the provider, then both signed callbacks go to the app and the open tab is no longer connected', async () => {
  await connectBakery(appTab);
  await removeFromSettings();
  const sent = await deliveries();
  expect(sent.map((d) => [d.kind, d.url, d.userId])).toEqual([
    ['deauthorize', `${stack.appUrl}/auth/deauthorize`, SEED_IDS.users.ada],
    ['data_deletion', `${stack.appUrl}/auth/data-deletion`, SEED_IDS.users.ada],
  ]);
  // (That the provider also revoked the tokens, 190/458, is the emulator's own test: remove-app.test.ts.)
  // The open tab: its next request finds the session signed out and offers to connect again.
  await appTab.getByRole('link', { name: 'Older posts' }).click();
  await appTab.getByRole('link', { name: 'Connect page' }).first().waitFor();
});

test('when Ada removes Pagelight and requests deletion, then the app confirms with a code and the open tab is signed out on its next request', async () => {
  await connectBakery(appTab);
  const settings = await removeFromSettings();
  const sent = await deliveries();
  expect(sent.map((d) => [d.kind, d.status, d.ok])).toEqual([
    ['deauthorize', 200, true],
    ['data_deletion', 200, true],
  ]);
  const code = sent[1]?.confirmationCode ?? '';
  expect(code).not.toBe('');
  await expect(settings.locator('main').innerText()).resolves.toContain(`Pagelight confirmed deletion: code ${code}`);
  // The app's status page for that code, linked from the provider's page.
  await settings.getByRole('link', { name: 'Deletion status' }).click();
  await settings.waitForURL(`${stack.appUrl}/auth/data-deletion/${code}`);
  expect(await axeProblems(settings)).toEqual([]);
  // The open tab: its session is gone, even for a view the page cache could serve.
  await appTab.reload();
  await expect(appTab.locator('main').innerText()).resolves.toMatch(/signed out|removed/i);
  await expect(appTab.getByRole('link', { name: 'Connect page' }).isVisible()).resolves.toBe(true);
  expect(await axeProblems(appTab)).toEqual([]);
});
