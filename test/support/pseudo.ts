import { parse } from 'parse5';

/**
 * The words on a page that came from no catalog (docs/architecture.md#languages). Rendered in the pseudo-locale
 * `en-XA`, every message and every Intl-made word is between ⟦ and ⟧; what is left outside them must be
 * punctuation, or content that is not ours to translate, which the views isolate: provider content in
 * `dir="auto"` or `<bdi>`, identifiers and addresses in `translate="no"`.
 */

interface Node {
  nodeName: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
}

/** Characters that are no words: spacing, punctuation, arrows and the logo. */
const NO_WORDS = /^[\s·—–:;,.()!?“”"'…←→◐+\-/#]*$/;
const CHECKED_ATTRIBUTES = [
  'alt',
  'title',
  'aria-label',
  'placeholder',
  'data-changed',
  'data-unavailable',
  'data-picture-unavailable',
];

function attr(node: Node, name: string): string | undefined {
  return node.attrs?.find((a) => a.name === name)?.value;
}

function isolated(node: Node): boolean {
  return node.nodeName === 'bdi' || attr(node, 'dir') === 'auto' || attr(node, 'translate') === 'no';
}

/** `text` without its ⟦…⟧ spans (nested ones too). */
function outsideMarkers(text: string): string {
  let depth = 0;
  let out = '';
  for (const ch of text) {
    if (ch === '⟦') depth++;
    else if (ch === '⟧') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

/** Each piece of text people read on `html` that no catalog or Intl made, with where it was found. */
export function wordsOutsideCatalogs(html: string): string[] {
  const found: string[] = [];
  let text = '';
  const walk = (node: Node) => {
    if (node.nodeName === 'script' || node.nodeName === 'style') return;
    if (node.nodeName === '#text') {
      text += node.value ?? '';
      return;
    }
    if (node.attrs && !isolated(node)) {
      for (const name of CHECKED_ATTRIBUTES) {
        const value = attr(node, name);
        // A post's exact time on hover is the Locale's date, as its text is.
        if (value && !NO_WORDS.test(outsideMarkers(value))) found.push(`${node.nodeName}[${name}]: ${value}`);
      }
    }
    if (isolated(node)) {
      text += ' ';
      return;
    }
    for (const child of node.childNodes ?? []) walk(child);
    if (node.content) walk(node.content);
  };
  walk(parse(html));
  const left = outsideMarkers(text)
    .split(/\n/)
    .map((line) => line.trim())
    .filter((line) => !NO_WORDS.test(line));
  return [...found, ...left];
}
