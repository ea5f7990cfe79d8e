import path from 'node:path';
import ejs from 'ejs';
import type { Application } from 'express';

/** The EJS templates (views/), from src/http or dist/http alike. */
export const VIEWS_DIR = path.resolve(__dirname, '..', '..', 'views');

/**
 * HTML this app rendered from its own templates (src/pages/fragments.ts), already escaped there. The one
 * value `<%= %>` prints as it is: a view never needs the unescaped tag, and a string is always escaped, so
 * text from a request or the provider cannot reach a page unescaped by being passed where HTML was meant.
 */
export class RenderedHtml {
  constructor(readonly html: string) {}
}

/** What `<%= %>` prints: RenderedHtml as it is, everything else escaped as EJS does. */
export function escapeOutput(value: unknown): string {
  return value instanceof RenderedHtml ? value.html : ejs.escapeXML(value);
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
  app.set('view engine', 'ejs');
  app.engine('ejs', (file: string, data: object, callback: (err: Error | null, html?: string) => void) => {
    ejs.renderFile(file, data, templateOptions(app), callback);
  });
}
