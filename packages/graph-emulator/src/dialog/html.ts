/**
 * Security headers and error pages for the emulator's own HTML. The dialog
 * page allows its form to lead to the app's callback: browsers check
 * `form-action` on the redirect that follows a form submission too.
 */
import type { Response } from 'express';
import { speechFor, type EmulatorKey, type Values } from '../i18n/speech';
import type { BlockedRedirect } from './validate';

/** A message of the emulator's catalogs and its arguments, said in the page's language when rendered. */
export interface Say {
  key: EmulatorKey;
  values?: Values;
}

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

/**
 * Renders one of the emulator's pages in the person's language (src/i18n/speech.ts): `t` and `html` for the
 * template, `<html lang dir>`, and an answer that says its language and that it varies with the browser's.
 */
export function renderPage(res: Response, view: string, locals: Record<string, unknown>): void {
  const speech = speechFor(res.req);
  res.set('Content-Language', speech.tag);
  res.vary('Accept-Language');
  res.render(view, { ...locals, lang: speech.tag, dir: speech.dir, t: speech.t, html: speech.html });
}

export function renderError(
  res: Response,
  status: number,
  title: EmulatorKey,
  message: EmulatorKey | Say,
  blocked?: BlockedRedirect,
): void {
  setHtmlHeaders(res);
  const { t } = speechFor(res.req);
  const text = typeof message === 'string' ? t(message) : t(message.key, message.values);
  res.status(status);
  renderPage(res, 'error', {
    title: t(title),
    message: text,
    status,
    blocked: blocked === undefined ? undefined : blockedView(blocked),
  });
}

/**
 * The registered URI is the emulator's own configuration, so its origin is a
 * safe way back to the app; the URI that was sent is only shown (escaped).
 */
function blockedView({ registered, sent }: BlockedRedirect): { registered: string; sent?: string; home: string } {
  return { registered, ...(sent !== undefined ? { sent } : {}), home: `${new URL(registered).origin}/` };
}
