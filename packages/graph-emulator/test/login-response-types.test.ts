/**
 * The manual login flow's `response_type` and `auth_type` values, as
 * "Manually Build a Login Flow" describes them (docs/specification.md#login-dialog,
 * docs/specification.md#redirect-fragment); what discovery advertises of them is test/discovery.test.ts.
 */
import request from 'supertest';
import type { Express } from 'express';
import {
  type DialogParams,
  DEFAULT_SCOPE,
  exchange,
  graphGet,
  makeEmulator,
  openDialog,
  requestIdOf,
  runDialog,
  USERS,
} from './helpers';
import { attr, findAll, inputsNamed } from './dom';

/** Opens the dialog with `params` and submits it as Ada with `perms` checked and `extra` fields. */
async function decide(app: Express, params: DialogParams, perms: string[], extra: Record<string, string> = {}) {
  const page = await openDialog(app, params).expect(200);
  const form = new URLSearchParams({ request_id: requestIdOf(page.text), decision: 'continue', user_id: USERS.ada });
  for (const p of perms) form.append(`perm_${USERS.ada}`, p);
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  return { page, res: await request(app).post('/v23.0/dialog/oauth/decision').type('form').send(form.toString()) };
}

const ALL = DEFAULT_SCOPE.split(' ');

describe('response_type', () => {
  it('when response_type=token, then the token comes in the fragment (with expires_in and state), never in the query', async () => {
    const { app } = makeEmulator();
    const location = new URL(await runDialog(app, { response_type: 'token' }));
    expect(location.search).toBe('');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('code')).toBeNull();
    expect(fragment.get('state')).toBe('state-123');
    expect(fragment.get('expires_in')).toBe('7200');
    expect(fragment.get('data_access_expiration_time')).toMatch(/^\d+$/);
    const token = fragment.get('access_token') ?? '';
    const me = await graphGet(app, '/v23.0/me', token).expect(200);
    expect(me.body.id).toBe(USERS.ada);
  });

  it('when response_type=code token, then both the code and the token in the fragment', async () => {
    const { app } = makeEmulator();
    const location = new URL(await runDialog(app, { response_type: 'code token' }));
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('access_token')).toMatch(/^EAA/);
    await exchange(app, fragment.get('code') ?? '').expect(200);
  });

  it('when granted_scopes is added to code, then the query also lists the granted permissions, comma-separated', async () => {
    const { app } = makeEmulator();
    const location = new URL(
      await runDialog(app, { response_type: 'code granted_scopes' }, { perms: ['pages_show_list'] }),
    );
    expect(location.searchParams.get('code')).toMatch(/.+/);
    expect(location.searchParams.get('granted_scopes')).toBe('public_profile,pages_show_list');
    expect(location.hash).toBe('#_=_');
  });

  it('when granted_scopes is added to token, then they come in the fragment with the token', async () => {
    const { app } = makeEmulator();
    const location = new URL(await runDialog(app, { response_type: 'token granted_scopes' }));
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('granted_scopes')).toBe(['public_profile', ...ALL].join(','));
    expect(location.search).toBe('');
  });

  it.each(['id_token', 'code id_token', 'code,token', 'nonsense'])(
    'when response_type=%s (not one the manual flow lists), then a 400 page and no redirect',
    async (responseType) => {
      const { app } = makeEmulator();
      const res = await openDialog(app, { response_type: responseType }).expect(400);
      expect(res.headers.location).toBeUndefined();
    },
  );
});

describe('auth_type', () => {
  it('when a permission was declined before, then a later login does not grant it even if asked; with rerequest it does', async () => {
    const { app } = makeEmulator();
    const first = await decide(app, {}, ['pages_show_list']);
    await exchange(app, new URL(first.res.headers.location as string).searchParams.get('code') ?? '').expect(200);

    const again = await decide(app, {}, ALL);
    const plain = await exchange(app, new URL(again.res.headers.location as string).searchParams.get('code') ?? '');
    const perms = await graphGet(app, '/v23.0/me/permissions', plain.body.access_token as string).expect(200);
    expect(perms.body.data).toContainEqual({ permission: 'pages_read_engagement', status: 'declined' });

    const asked = await decide(app, { auth_type: 'rerequest' }, ALL);
    expect(asked.page.text).toContain('asking again for permissions you declined');
    const re = await exchange(app, new URL(asked.res.headers.location as string).searchParams.get('code') ?? '');
    const granted = await graphGet(app, '/v23.0/me/permissions', re.body.access_token as string).expect(200);
    expect(granted.body.data).toContainEqual({ permission: 'pages_read_engagement', status: 'granted' });
  });

  it('when auth_type=reauthenticate, then the dialog asks for the password, and refuses to continue without one', async () => {
    const { app } = makeEmulator();
    const page = await openDialog(app, { auth_type: 'reauthenticate' }).expect(200);
    expect(inputsNamed(page.text, 'password')).toEqual([expect.objectContaining({ type: 'password', required: '' })]);
    const without = await decide(app, { auth_type: 'reauthenticate' }, ALL);
    expect(without.res.status).toBe(400);
    expect(without.res.headers.location).toBeUndefined();
    const withPassword = await decide(app, { auth_type: 'reauthenticate' }, ALL, { password: 'analytical-engine' });
    expect(withPassword.res.status).toBe(302);
  });

  it('when no auth_type is sent, then there is no password step', async () => {
    const { app } = makeEmulator();
    const page = await openDialog(app).expect(200);
    expect(findAll(page.text, (n) => n.nodeName === 'input' && attr(n, 'type') === 'password')).toEqual([]);
  });

  it('when auth_type is unknown, then a 400 page', async () => {
    const { app } = makeEmulator();
    await openDialog(app, { auth_type: 'sometimes' }).expect(400);
  });
});
