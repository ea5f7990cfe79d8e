/**
 * What a person reads on a page, and the words they should never meet there
 * (docs/architecture.md#error-model): the operator's `<details>` and the
 * markup are removed first.
 */

/** The visible text of a page: no `<details>`, scripts, styles or tags; entities decoded; spaces collapsed. */
export function visibleText(html: string): string {
  return html
    .replace(/<details\b[\s\S]*?<\/details>/gi, ' ')
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

const JARGON: [string, RegExp][] = [
  ['provider', /\bproviders?\b/i],
  ['cursor', /\bcursors?\b/i],
  ['scope', /\bscopes?\b/i],
  ['token', /\btokens?\b/i],
  ['a permission identifier', /\b[a-z]+(?:_[a-z]+)+\b/],
  ['a status code as a headline', /\bError \d{3}\b/i],
  ['Graph API', /\bGraph API\b/i],
  ['OAuth', /\bOAuth/i],
];

/** The jargon found in what people read on the page, as "name: match" (empty when none). */
export function jargonIn(html: string): string[] {
  const text = visibleText(html);
  return JARGON.flatMap(([name, pattern]) => {
    const m = pattern.exec(text);
    return m ? [`${name}: "${m[0]}" in "${text.slice(Math.max(0, m.index - 40), m.index + 40)}"`] : [];
  });
}

/** The page's `<h1>`, as read. */
export function headline(html: string): string {
  return visibleText(/<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1] ?? '');
}

/** The href of the link or button labelled `label` (exactly, after trimming). */
export function hrefOf(html: string, label: string): string | undefined {
  for (const m of html.matchAll(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi)) {
    if (visibleText(m[2]!) === label) return m[1]!.replace(/&amp;/g, '&').replace(/&#39;/g, "'");
  }
  return undefined;
}
