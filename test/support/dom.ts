import { parse } from 'parse5';

/**
 * What a person meets in a page, found in its parsed tree (parse5, the parser browsers' spec describes) rather
 * than in markup strings, so a renamed class or reordered attribute does not fail a test about behaviour.
 */
export interface DomNode {
  nodeName: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: DomNode[];
}

export const attr = (node: DomNode, name: string): string | undefined =>
  node.attrs?.find((a) => a.name === name)?.value;

export const classes = (node: DomNode): string[] => attr(node, 'class')?.split(' ') ?? [];

/**
 * Every piece of text in `html` (scripts and styles left out) with what its ancestors make of it: `within` is
 * given each element and what its parent was within, and says what the element's text is within.
 */
export function textsWithin<T>(
  html: string,
  within: (node: DomNode, parent: T) => T,
  top: T,
): { text: string; within: T }[] {
  const found: { text: string; within: T }[] = [];
  const walk = (node: DomNode, parent: T) => {
    if (node.nodeName === 'script' || node.nodeName === 'style') return;
    if (node.nodeName === '#text') {
      found.push({ text: node.value ?? '', within: parent });
      return;
    }
    const here = within(node, parent);
    for (const child of node.childNodes ?? []) walk(child, here);
  };
  walk(parse(html), top);
  return found;
}

/** The texts of the page's headings of one level (`h2`: the sections a person scans), trimmed. */
export function headingTexts(html: string, level: 'h1' | 'h2' | 'h3'): string[] {
  return textsWithin(html, (node, inside: boolean) => inside || node.nodeName === level, false)
    .filter(({ within, text }) => within && text.trim() !== '')
    .map(({ text }) => text.trim());
}

/** The text of a node and its descendants (scripts and styles left out), spaces collapsed. */
export function textOf(node: DomNode): string {
  const parts: string[] = [];
  const walk = (n: DomNode) => {
    if (n.nodeName === 'script' || n.nodeName === 'style') return;
    if (n.nodeName === '#text') parts.push(n.value ?? '');
    const kids = n.nodeName === 'template' ? [] : (n.childNodes ?? []);
    for (const child of kids) walk(child);
  };
  walk(node);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** Every element of the page, each with the ids of the elements it sits in (nearest first). */
function elements(html: string): { node: DomNode; inside: string[] }[] {
  const found: { node: DomNode; inside: string[] }[] = [];
  const walk = (node: DomNode, inside: string[]) => {
    if (!node.nodeName.startsWith('#')) found.push({ node, inside });
    const id = attr(node, 'id');
    const next = id === undefined ? inside : [id, ...inside];
    for (const child of node.childNodes ?? []) walk(child, next);
  };
  walk(parse(html), []);
  return found;
}

/** A form as a person meets it: where it posts, what it sends unseen, its text box, its button, where it sits. */
export interface FormFound {
  action: string;
  method: string;
  /** The hidden inputs, by name. */
  hidden: Record<string, string>;
  /** The text box's name, what it holds and its label's text, when it has one. */
  textbox?: { name: string; value: string; label: string };
  /** The words of its submit button. */
  button: string;
  /** The ids of the elements it sits in, nearest first (`comment-…`, `comments`). */
  inside: string[];
}

/** Every form of the page. */
export function formsIn(html: string): FormFound[] {
  const all = elements(html);
  const labels = new Map<string, string>();
  for (const { node } of all) {
    const target = node.nodeName === 'label' ? attr(node, 'for') : undefined;
    if (target !== undefined) labels.set(target, textOf(node));
  }
  return all
    .filter(({ node }) => node.nodeName === 'form')
    .map(({ node, inside }) => {
      const within = descendants(node);
      const hidden: Record<string, string> = {};
      let textbox: FormFound['textbox'];
      let button = '';
      for (const n of within) {
        if (n.nodeName === 'input' && attr(n, 'type') === 'hidden')
          hidden[attr(n, 'name') ?? ''] = attr(n, 'value') ?? '';
        if (n.nodeName === 'textarea')
          textbox = {
            name: attr(n, 'name') ?? '',
            value: (n.childNodes ?? []).map((c) => c.value ?? '').join(''),
            label: labels.get(attr(n, 'id') ?? '') ?? '',
          };
        if (n.nodeName === 'button' && (attr(n, 'type') ?? 'submit') === 'submit') button = textOf(n);
      }
      return {
        action: attr(node, 'action') ?? '',
        method: (attr(node, 'method') ?? 'get').toLowerCase(),
        hidden,
        ...(textbox ? { textbox } : {}),
        button,
        inside,
      };
    });
}

function descendants(node: DomNode): DomNode[] {
  const out: DomNode[] = [];
  const walk = (n: DomNode) => {
    for (const child of n.childNodes ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(node);
  return out;
}

/** The text of the element with this id, undefined when the page has none. */
export function textOfId(html: string, id: string): string | undefined {
  const found = elements(html).find(({ node }) => attr(node, 'id') === id);
  return found ? textOf(found.node) : undefined;
}

/** The links of the page, as their words and where they lead. */
export function linksIn(html: string): { text: string; href: string }[] {
  return elements(html)
    .filter(({ node }) => node.nodeName === 'a' && attr(node, 'href') !== undefined)
    .map(({ node }) => ({ text: textOf(node), href: attr(node, 'href')! }));
}
