import ejs from 'ejs';

/**
 * HTML this app made from its own templates (src/pages/fragments.ts) or its own messages (src/i18n/locale.ts),
 * already escaped there. The one value `<%= %>` prints as it is: a view never needs the unescaped tag, and a
 * string is always escaped, so text from a request or the provider cannot reach a page unescaped by being
 * passed where HTML was meant.
 */
export class RenderedHtml {
  constructor(readonly html: string) {}
}

/** Text as HTML: `& < > " '` escaped, as EJS escapes `<%= %>`. */
export function escapeHtml(value: unknown): string {
  return ejs.escapeXML(value);
}
