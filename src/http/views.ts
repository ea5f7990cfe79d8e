import fs from 'node:fs';
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
      // Nothing kept in it (a view made for itself, the page cache off): the page is sent as rendered.
      if (kept.length === 0) return res.type('html').send(html);
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

/** The EJS options of `file`, a template of views/: every template the app renders is compiled with these. */
export function templateOptions(app: Application, file: string): ejs.Options & { async: false; client: false } {
  return {
    async: false,
    client: false,
    filename: file,
    root: VIEWS_DIR,
    cache: app.enabled('view cache'),
    escape: escapeOutput,
    // Each line's indentation and trailing spaces left out, and blank lines: 7 % of a page view's bytes.
    rmWhitespace: true,
    // The names the template reads become its local variables, in place of EJS's `with (locals)`: see namesRead.
    _with: false,
    destructuredLocals: namesRead(file, app.enabled('view cache')),
  };
}

/**
 * The names a template reads from its data: every name in its code (its `<% %>` tags) and in the partials it
 * includes, less the language's words, EJS's own, the few globals templates call, and the helper functions and
 * the `const` and `let` names a template declares. Given to EJS as `destructuredLocals` (each a local variable of the compiled template), it
 * replaces the `with (locals)` block EJS compiles a template into otherwise, where every name the template reads,
 * `__append` for each piece of output included, is looked up by name at run time, V8's slowest way
 * (docs/performance.md#templates-without-with). A name the data lacks reads as undefined (under `with` it threw).
 * Extra names (an object literal's keys) cost a property read each and nothing else.
 */
function namesRead(file: string, cache: boolean): string[] {
  const known = cache ? namesOfFile.get(file) : undefined;
  if (known !== undefined) return known;
  const files = new Map<string, TemplateNames>();
  collectNames(file, files);
  const names = new Set([...files.values()].flatMap((f) => [...f.data]));
  // A partial is compiled with the list of the template that includes it: its helpers must not be data there.
  for (const [name, f] of files)
    for (const helper of f.helpers)
      if (names.has(helper))
        throw new Error(`${name}: its helper ${helper}() has the name of a value another template reads; rename it`);
  const list = [...names];
  if (cache) namesOfFile.set(file, list);
  return list;
}

const namesOfFile = new Map<string, string[]>();

interface TemplateNames {
  /** The names the template reads that are not its own. */
  data: Set<string>;
  /** The functions it declares (`<% function text(segments) { … } %>`). */
  helpers: Set<string>;
  /** The names it declares with `const` or `let`. */
  declared: Set<string>;
}

/** Code tags of EJS (`<%`, `<%=`, `<%-`, `<%_`), a comment tag (`<%#`) included: its text is skipped below. */
const CODE_TAG = /<%[_=-]?([\s\S]*?)[-_]?%>/g;
/** A quoted string in the code: its words are not names. */
const QUOTED = /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g;
/** A name not read as a property (`.name`). */
const NAME = /(?<![\w$.])[A-Za-z_$][\w$]*/g;
const HELPER = /\bfunction\s+([A-Za-z_$][\w$]*)/g;
/** `const total = …`, `let i`, `for (const row of …)`: a name the template makes, not data. */
const DECLARED = /\b(?:const|let)\s+([A-Za-z_$][\w$]*)/g;
/** `include('/partials/head')`, the partial's name from the views folder. */
const INCLUDE = /include\(\s*(['"])([^'"]+)\1/g;
/** JavaScript's words, EJS's own parameters, and the globals the templates call: not the data's. */
const NOT_DATA = new Set(
  [
    'break case catch class const continue debugger default delete do else export extends false finally for',
    'function if import in instanceof new null return super switch this throw true try typeof var void while with',
    'yield let static await of undefined NaN Infinity arguments eval',
    'locals include escapeFn rethrow __append __output __line __lines __filename __locals',
    'JSON Object Array Number String Math Date encodeURIComponent',
  ]
    .join(' ')
    .split(' '),
);

/** The names of `file` and of the partials it includes, by file. */
function collectNames(file: string, into: Map<string, TemplateNames>): void {
  if (into.has(file)) return;
  const names: TemplateNames = { data: new Set(), helpers: new Set(), declared: new Set() };
  into.set(file, names);
  for (const [, code] of fs.readFileSync(file, 'utf8').matchAll(CODE_TAG)) {
    if (code!.startsWith('#')) continue;
    for (const [, , included] of code!.matchAll(INCLUDE))
      collectNames(path.join(VIEWS_DIR, `${included!.replace(/^\//, '')}.ejs`), into);
    const unquoted = code!.replace(QUOTED, ' ');
    for (const [name] of unquoted.matchAll(NAME)) if (!NOT_DATA.has(name)) names.data.add(name);
    for (const [, helper] of unquoted.matchAll(HELPER)) names.helpers.add(helper!);
    for (const [, declared] of unquoted.matchAll(DECLARED)) names.declared.add(declared!);
  }
  for (const helper of names.helpers) names.data.delete(helper);
  // Each data name is a `var` of the compiled template: a `const` or `let` of the same name at its top would be
  // declared twice, a SyntaxError when it is compiled.
  for (const declared of names.declared) names.data.delete(declared);
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
    ejs.renderFile(file, data, templateOptions(app, file), callback);
  });
}
