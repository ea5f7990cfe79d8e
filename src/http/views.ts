import path from 'node:path';
import ejs from 'ejs';
import type { Application } from 'express';

/** The EJS templates (views/), from src/http or dist/http alike. */
export const VIEWS_DIR = path.resolve(__dirname, '..', '..', 'views');

/**
 * Renders views/ with EJS. Includes name their file from the views folder (`/partials/head`), which EJS
 * resolves against `root` without looking on disk: a relative include cost an existsSync on every render.
 * EJS 7 takes no options from a view's data, so they are given here, the view cache included.
 */
export function useViews(app: Application): void {
  app.set('views', VIEWS_DIR);
  app.set('view engine', 'ejs');
  app.engine('ejs', (file: string, data: object, callback: (err: Error | null, html?: string) => void) => {
    const cache = app.enabled('view cache');
    ejs.renderFile(file, data, { root: VIEWS_DIR, cache }, callback);
  });
}
