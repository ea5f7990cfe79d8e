/** A stored session's parts as express-session writes them: its cookie and a sign-in to one Page (sealed tokens). */
export const storedCookie = {
  originalMaxAge: 3600000,
  expires: '2026-01-01T00:00:00.000Z',
  httpOnly: true,
  path: '/',
  sameSite: 'lax',
};

export const storedSignIn = {
  userToken: 'k1.sealed',
  expiresAt: null,
  loggedInAt: 1,
  pages: { '123': { token: 'k1.page', name: 'Bakery' } },
};
