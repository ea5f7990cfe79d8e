import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { CsrfError } from '../errors';

/**
 * Synchronizer-token CSRF protection (OWASP CSRF cheat sheet): a random token
 * kept in the session, echoed by every form, compared in constant time.
 * Written here rather than taken from csrf-sync, which compares with `===`
 * and stores 256-character tokens in every session.
 */
export function csrfToken(req: Request): string {
  req.session.csrf ??= randomBytes(24).toString('base64url');
  return req.session.csrf;
}

export function requireCsrf(req: Request, _res: Response, next: NextFunction): void {
  const sent: unknown = (req.body as Record<string, unknown> | undefined)?._csrf ?? req.get('x-csrf-token');
  const stored = req.session.csrf;
  if (typeof sent !== 'string' || typeof stored !== 'string' || !safeEqual(sent, stored)) {
    next(new CsrfError());
    return;
  }
  next();
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
