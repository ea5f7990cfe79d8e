import path from 'node:path';
import ejs from 'ejs';
import type { Application, Response } from 'express';
import { escapeHtml, KeptHtml, RenderedHtml } from '../html';
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
  if (!(value instanceof RenderedHtml)) return escapeHtml(value);
  if (splicing !== undefined && value instanceof KeptHtml) {
    splicing.push(value);
    return SPLICE;
  }
  return value.html;
}

/** Where a kept part goes in a page rendered by `renderSpliced`: no escaped text has a `<`, so none is taken for it. */
const SPLICE = '<\u0000>';
/** The kept parts printed by the render under way in `renderSpliced`, in order; undefined outside one. */
let splicing: KeptHtml[] | undefined;

/**
 * `res.render(view, data)`, with the kept parts it prints (KeptHtml, src/html.ts) sent as their bytes, made once:
 * the page's own HTML around them is encoded, they are not. A page view's parts are most of its HTML, and
 * encoding them on every view (UTF-8 from a string of two-byte characters, as any emoji in a post makes it) cost
 * more than rendering its frame (docs/performance.md#shortcuts-and-the-rows-they-pay-for).
 */
export function renderSpliced(res: Response, view: string, data: object): void {
  const kept: KeptHtml[] = [];
  // EJS renders synchronously: the parts printed until res.render returns are this page's.
  splicing = kept;
  try {
    res.render(view, data, (err: Error | null, html?: string) => {
      // As res.render answers a failed render without a callback of its own: the error handler.
      if (err) return res.req.next!(err);
      const around = html!.split(SPLICE);
      const chunks: Buffer[] = [];
      around.forEach((piece, i) => {
        chunks.push(Buffer.from(piece, 'utf8'));
        if (i < kept.length) chunks.push(kept[i]!.bytes);
      });
      res.type('html').send(Buffer.concat(chunks));
    });
  } finally {
    splicing = undefined;
  }
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
