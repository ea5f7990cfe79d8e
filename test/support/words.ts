/**
 * What a person reads on a page, and the words they should never meet there
 * (docs/architecture.md#error-model): the operator's `<details>` and the
 * markup are removed first.
 */
import { classes, find, linkTo, textOf, textsWithin } from './dom';

/** The visible text of a page: no `<details>`, scripts, styles or tags; entities decoded; spaces collapsed. */
export function visibleText(html: string): string {
  return textsWithin(html, (node, hidden: boolean) => hidden || node.nodeName === 'details', false)
    .filter(({ within }) => !within)
    .map(({ text }) => text)
    .join(' ')
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
  const h1 = find(html, 'h1');
  return h1 ? textOf(h1) : '';
}

/** The href of the link labelled `label` (exactly, after trimming), entities decoded. */
export function hrefOf(html: string, label: string): string | undefined {
  return linkTo(html, label)?.href;
}

/** What the operator's `<details>` says (the provider's reason, the status), which `visibleText` leaves out. */
export function operatorText(html: string): string {
  return textsWithin(
    html,
    (node, inside: boolean) => inside || (node.nodeName === 'details' && classes(node).includes('operator')),
    false,
  )
    .filter(({ within }) => within)
    .map(({ text }) => text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
