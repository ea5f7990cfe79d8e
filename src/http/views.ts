import path from 'node:path';
import ejs from 'ejs';
import type { Application } from 'express';
import { escapeHtml, RenderedHtml } from '../html';
import { englishLocale } from '../i18n/catalogs';
import type { Locale } from '../i18n/locale';
import type { LanguageLink } from './language';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    /** What every view may read, typed once: set per request by the middlewares named beside each. */
    interface Locals {
      /** The request's language (./language.ts `chooseLocale`, before every route); `t` and `html` are its own. */
      locale: Locale;
      t: Locale['t'];
      html: Locale['html'];
      /** The footer's language menu (./language.ts). */
      languages: () => readonly LanguageLink[];
      /** The CSRF token, made only when a form asks for it (src/app.ts). */
      csrf: () => string;
      /** The person is connected, under this name (src/app.ts). */
      connected: boolean;
      userName: string | undefined;
      /** The one-time message, in this page's language (src/app.ts). */
      flash: string | undefined;
      /** The request named a session the store could not read (src/session/middleware.ts). */
      sessionUnknown?: boolean;
    }
  }
}

/** The EJS templates (views/), from src/http or dist/http alike. */
export const VIEWS_DIR = path.resolve(__dirname, '..', '..', 'views');

/** What `<%= %>` prints: RenderedHtml (src/html.ts) as it is, everything else escaped as EJS does. */
export function escapeOutput(value: unknown): string {
  return value instanceof RenderedHtml ? value.html : escapeHtml(value);
}

/** The EJS options of every template the app renders. */
export function templateOptions(app: Application): ejs.Options {
  return { root: VIEWS_DIR, cache: app.enabled('view cache'), escape: escapeOutput };
}

/**
 * Renders views/ with EJS. Includes name their file from the views folder (`/partials/head`), which EJS
 * resolves against `root` without looking on disk: a relative include cost an existsSync on every render.
 * EJS 7 takes no options from a view's data, so they are given here, the view cache included.
 */
export function useViews(app: Application): void {
  app.set('views', VIEWS_DIR);
  // A page rendered before the language is chosen (an early error; a view rendered alone) reads in English.
  const english = englishLocale();
  Object.assign(app.locals, { locale: english, t: english.t, html: english.html, languages: () => [] });
  app.set('view engine', 'ejs');
  app.engine('ejs', (file: string, data: object, callback: (err: Error | null, html?: string) => void) => {
    ejs.renderFile(file, data, templateOptions(app), callback);
  });
}
