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
