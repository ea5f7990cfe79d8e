/**
 * Security headers and error pages for the emulator's own HTML. The dialog
 * page allows its form to lead to the app's callback: browsers check
 * `form-action` on the redirect that follows a form submission too.
 */
import type { Response } from 'express';
import type { BlockedRedirect } from './validate';

export function setHtmlHeaders(res: Response, redirectOrigin?: string): void {
  const formAction = redirectOrigin === undefined ? "'self'" : `'self' ${redirectOrigin}`;
  res.set({
    'Content-Security-Policy':
      `default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self'; object-src 'none'; ` +
      `base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
}

export function renderError(
  res: Response,
  status: number,
  title: string,
  message: string,
  blocked?: BlockedRedirect,
): void {
  setHtmlHeaders(res);
  res
    .status(status)
    .render('error', { title, message, status, blocked: blocked === undefined ? undefined : blockedView(blocked) });
}

/**
 * The registered URI is the emulator's own configuration, so its origin is a
 * safe way back to the app; the URI that was sent is only shown (escaped).
 */
function blockedView({ registered, sent }: BlockedRedirect): { registered: string; sent: string; home: string } {
  return { registered, sent: sent ?? '(none)', home: `${new URL(registered).origin}/` };
}
