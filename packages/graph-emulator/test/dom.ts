import { parse } from 'parse5';

/**
 * The emulator's pages as a person meets them, found in the parsed tree rather than in markup strings. The app's
 * tests have the fuller test/support/dom.ts; this package imports nothing of the app's (.dependency-cruiser.js),
 * so it keeps the few finders its own pages need.
 */
export interface Element {
  nodeName: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Element[];
}

type Where = string | Element;
const rootOf = (where: Where): Element => (typeof where === 'string' ? parse(where) : where);

export const attr = (node: Element, name: string): string | undefined =>
  node.attrs?.find((a) => a.name === name)?.value;

/** Every element below `where`, in document order, with the tag `q` names or that `q` accepts. */
export function findAll(where: Where, q: string | ((node: Element) => boolean)): Element[] {
  const match = typeof q === 'string' ? (node: Element) => node.nodeName === q : q;
  const found: Element[] = [];
  const walk = (node: Element) => {
    for (const child of node.childNodes ?? []) {
      if (child.attrs && match(child)) found.push(child);
      walk(child);
    }
  };
  walk(rootOf(where));
  return found;
}

export const find = (where: Where, q: string | ((node: Element) => boolean)): Element | undefined =>
  findAll(where, q)[0];

/** The text below `where` (scripts and styles left out), entities decoded, spaces collapsed. */
export function textOf(where: Where): string {
  const parts: string[] = [];
  const walk = (node: Element) => {
    if (node.nodeName === 'script' || node.nodeName === 'style') return;
    if (node.nodeName === '#text') parts.push(node.value ?? '');
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(rootOf(where));
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** The inputs named `name`, with their attributes by name. */
export const inputsNamed = (where: Where, name: string): Record<string, string>[] =>
  findAll(where, (n) => n.nodeName === 'input' && attr(n, 'name') === name).map((n) =>
    Object.fromEntries((n.attrs ?? []).map((a) => [a.name, a.value])),
  );

/** Each piece of text below `where` (scripts and styles left out), trimmed, with the element that holds it. */
export function textNodes(where: Where): { text: string; parent: Element }[] {
  const found: { text: string; parent: Element }[] = [];
  const walk = (node: Element) => {
    if (node.nodeName === 'script' || node.nodeName === 'style') return;
    for (const child of node.childNodes ?? []) {
      if (child.nodeName === '#text' && child.value?.trim()) found.push({ text: child.value.trim(), parent: node });
      else walk(child);
    }
  };
  walk(rootOf(where));
  return found;
}
