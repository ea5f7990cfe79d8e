/**
 * A permission declined at a login stays declined at later logins until the app
 * asks again with `auth_type=rerequest`, whatever the logins in between asked for;
 * the dialog leaves it off the person's page ("Manually Build a Login Flow",
 * Re-asking for Declined Permissions; docs/specification.md#login-dialog).
 */
import type { Express } from 'express';
import { DEFAULT_SCOPE, graphGet, makeEmulator, openDialog, userToken, USERS } from './helpers';
import { inputsNamed } from './dom';

const ALL = DEFAULT_SCOPE.split(' ');

/** What /me/permissions says of `permission` for a token from a login asking `scope`, checking `perms`. */
async function statusAfter(
  app: Express,
  perms: string[],
  params: Record<string, string> = {},
  permission = 'pages_read_user_content',
) {
  const token = await userToken(app, { perms }, params);
  const res = await graphGet(app, '/v23.0/me/permissions', token).expect(200);
  return (res.body.data as { permission: string; status: string }[]).find((p) => p.permission === permission)?.status;
}

/** The permissions the dialog offers `user` to check. */
async function offeredTo(app: Express, user: string, params: Record<string, string> = {}): Promise<string[]> {
  const page = await openDialog(app, params).expect(200);
  return inputsNamed(page.text, `perm_${user}`).map((input) => input.value ?? '');
}

describe('a permission declined at an earlier login', () => {
  it('when a login in between asked for other permissions only, then a later login asking for it still does not grant it', async () => {
    const { app } = makeEmulator();
    await statusAfter(app, ['pages_show_list', 'pages_read_engagement']);
    await userToken(app, { perms: ['pages_show_list'] }, { scope: 'pages_show_list' });
    expect(await statusAfter(app, ALL)).toBe('declined');
  });

  it('when the app opens the dialog again without rerequest, then the page leaves it off for that person and offers it to others', async () => {
    const { app } = makeEmulator();
    await statusAfter(app, ['pages_show_list', 'pages_read_engagement']);
    await userToken(app, { perms: ['pages_show_list'] }, { scope: 'pages_show_list' });
    expect(await offeredTo(app, USERS.ada)).toEqual(['pages_show_list', 'pages_read_engagement']);
    expect(await offeredTo(app, USERS.grace)).toEqual(ALL);
  });

  it('when the app asks again with auth_type=rerequest, then the page offers it and a check grants it', async () => {
    const { app } = makeEmulator();
    await statusAfter(app, ['pages_show_list', 'pages_read_engagement']);
    expect(await offeredTo(app, USERS.ada, { auth_type: 'rerequest' })).toEqual(ALL);
    expect(await statusAfter(app, ALL, { auth_type: 'rerequest' })).toBe('granted');
  });

  it('when it was granted again at a rerequest, then a later plain login grants it as well', async () => {
    const { app } = makeEmulator();
    await statusAfter(app, ['pages_show_list', 'pages_read_engagement']);
    await statusAfter(app, ALL, { auth_type: 'rerequest' });
    expect(await statusAfter(app, ALL)).toBe('granted');
  });
});
