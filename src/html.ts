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

/**
 * RenderedHtml made once and served many times (a cached answer's parts, src/pages/fragments.ts): its UTF-8
 * bytes are made the first time a page is sent with it and kept with it, so a view sends them as they are
 * (src/http/views.ts `renderSpliced`) instead of encoding them again (docs/performance.md).
 */
export class KeptHtml extends RenderedHtml {
  private encoded: Buffer | undefined;

  get bytes(): Buffer {
    this.encoded ??= Buffer.from(this.html, 'utf8');
    return this.encoded;
  }
}

/**
 * Text as HTML: `& < > " '` escaped, as EJS escapes `<%= %>`. Most of what a page prints (numbers, names,
 * times) has none of them, and a test of the text is cheaper than EJS's replace with its callback (77 against
 * 107 ns; a cold page view prints hundreds):
 * docs/performance.md#the-cold-page-view-a-second-pass-2026-11-27-23300030-utc.
 */
export function escapeHtml(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string' && !HTML_SPECIAL.test(value)) return value;
  return ejs.escapeXML(value);
}

const HTML_SPECIAL = /[&<>'"]/;
