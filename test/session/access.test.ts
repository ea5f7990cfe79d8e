import type { Request } from 'express';
import { SignIns } from '../../src/session/sign-in';
import { TokenSealer } from '../../src/session/sealer';

/**
 * The page view's session boundary (docs/architecture.md#page-cache): the route reads what the session holds
 * for a Page once, as a value, and writes what the load learned in one place.
 */
const NOW = 1_700_000_000_000;
const sealer = new TokenSealer(['k'.repeat(32)]);
const signIns = new SignIns(sealer, 3600_000, () => NOW);

/** A request whose session is connected, with the bakery's page token, as express-session would hand it over. */
function connectedRequest(): Request {
  const req = { sessionID: 'sid-1', session: {} } as unknown as Request;
  signIns.start(req, { token: 'EAA-user', expiresAt: null }, ['pages_show_list', 'pages_read_engagement']);
  signIns.applyPageChanges(req, 'bakery', { connected: { token: 'EAA-page', name: 'Bakery' } });
  return req;
}

describe('SignIns.pageAccess', () => {
  it('when the session holds the page, then one value has its tokens opened and what the session knows of it', () => {
    const req = connectedRequest();
    signIns.applyPageChanges(req, 'bakery', { tasks: ['CREATE_CONTENT'], tokenConfirmedAt: NOW - 5, live: true });
    expect(signIns.pageAccess(req, 'bakery')).toEqual({
      sessionId: 'sid-1',
      request: expect.any(Number),
      userToken: 'EAA-user',
      scopes: ['pages_show_list', 'pages_read_engagement'],
      pages: [{ id: 'bakery', name: 'Bakery' }],
      pageId: 'bakery',
      pageToken: 'EAA-page',
      tasks: ['CREATE_CONTENT'],
      tokenConfirmedAt: NOW - 5,
      live: true,
      name: 'Bakery',
    });
  });

  it('when the page is not connected, then the value has the user token and no page token', () => {
    const access = signIns.pageAccess(connectedRequest(), 'other');
    expect(access.userToken).toBe('EAA-user');
    expect(access.pageToken).toBeUndefined();
    expect(access.live).toBe(false);
  });

  it('when the value is read, then the session is not changed', () => {
    const req = connectedRequest();
    const before = JSON.stringify(req.session);
    signIns.pageAccess(req, 'bakery');
    expect(JSON.stringify(req.session)).toBe(before);
  });
});

describe('SignIns.applyPageChanges', () => {
  it('when a load learned the role, confirmed the token and renamed the page, then the session keeps all three', () => {
    const req = connectedRequest();
    signIns.applyPageChanges(req, 'bakery', { tasks: ['ANALYZE'], tokenConfirmedAt: NOW, name: 'Bakery & Co' });
    const page = req.session.signIn?.pages.bakery;
    expect(page).toMatchObject({ tasks: ['ANALYZE'], tokenConfirmedAt: NOW, name: 'Bakery & Co' });
  });

  it('when a page is connected again, then its token is sealed to the session and what was known of it goes', () => {
    const req = connectedRequest();
    signIns.applyPageChanges(req, 'bakery', { tasks: ['ANALYZE'], tokenConfirmedAt: NOW, live: true });
    signIns.applyPageChanges(req, 'bakery', { connected: { token: 'EAA-page-2', name: '' }, live: false });
    const page = req.session.signIn?.pages.bakery;
    expect(page?.token).not.toContain('EAA-page-2');
    expect(sealer.open(page?.token, 'session:sid-1')).toBe('EAA-page-2');
    expect(page).toEqual({ token: page?.token, name: '' });
  });

  it('when no change is given, then nothing is written', () => {
    const req = connectedRequest();
    const before = JSON.stringify(req.session);
    signIns.applyPageChanges(req, 'bakery', {});
    expect(JSON.stringify(req.session)).toBe(before);
  });

  it('when the page is not connected, then changes for it are dropped', () => {
    const req = connectedRequest();
    signIns.applyPageChanges(req, 'other', { tasks: ['ANALYZE'], tokenConfirmedAt: NOW });
    expect(req.session.signIn?.pages.other).toBeUndefined();
  });
});

describe('SignIns.pageAccess with a tampered page token', () => {
  it('when no key opens the page token, then the sign-in ends and the value reads as not connected', () => {
    const req = connectedRequest();
    req.session.signIn!.pages.bakery!.token = 'tampered';
    const access = signIns.pageAccess(req, 'bakery');
    expect(access.userToken).toBeUndefined();
    expect(access.pageToken).toBeUndefined();
    expect(req.session.signIn).toBeUndefined();
  });
});
