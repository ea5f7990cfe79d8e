import { parse, serialize, type DefaultTreeAdapterMap } from 'parse5';

/**
 * What a person meets in a page, found in its parsed tree (parse5, the parser browsers' spec describes) rather
 * than in markup strings, so a renamed class or reordered attribute does not fail a test about behaviour.
 * Every finder takes the page's HTML or a node found in it.
 */
export interface DomNode {
  nodeName: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: DomNode[];
}

type Where = string | DomNode;

const parsed = new Map<string, DomNode>();

/** The page's tree; recent parses are kept, since a test asks several questions of one page. */
export function treeOf(html: string): DomNode {
  let tree = parsed.get(html);
  if (!tree) {
    tree = parse(html);
    if (parsed.size > 20) parsed.clear();
    parsed.set(html, tree);
  }
  return tree;
}

const rootOf = (where: Where): DomNode => (typeof where === 'string' ? treeOf(where) : where);

export const attr = (node: DomNode, name: string): string | undefined =>
  node.attrs?.find((a) => a.name === name)?.value;

export const classes = (node: DomNode): string[] => attr(node, 'class')?.split(/\s+/).filter(Boolean) ?? [];

/** What to look for: a tag and, optionally, a class it carries, an id, or attributes it has (value or `true`). */
export interface Query {
  tag?: string;
  class?: string;
  id?: string;
  attrs?: Record<string, string | true>;
}

const matches = (q: Query) => (node: DomNode) =>
  (q.tag === undefined || node.nodeName === q.tag) &&
  (q.class === undefined || classes(node).includes(q.class)) &&
  (q.id === undefined || attr(node, 'id') === q.id) &&
  Object.entries(q.attrs ?? {}).every(([name, want]) =>
    want === true ? attr(node, name) !== undefined : attr(node, name) === want,
  );

/** Every element below `where`, in document order, that `q` describes (a tag name, a Query or a test). */
export function findAll(where: Where, q: string | Query | ((node: DomNode) => boolean)): DomNode[] {
  const match = typeof q === 'function' ? q : matches(typeof q === 'string' ? { tag: q } : q);
  const found: DomNode[] = [];
  const walk = (node: DomNode) => {
    for (const child of node.childNodes ?? []) {
      if (child.attrs && match(child)) found.push(child);
      walk(child);
    }
  };
  walk(rootOf(where));
  return found;
}

/** The first element `q` describes, or undefined. */
export const find = (where: Where, q: string | Query | ((node: DomNode) => boolean)): DomNode | undefined =>
  findAll(where, q)[0];

/** What an element holds, serialized from its parsed tree: for comparing two renders, never for asserting markup. */
export const htmlWithin = (node: DomNode): string => serialize(node as unknown as DefaultTreeAdapterMap['parentNode']);

/** The text a node holds (scripts and styles left out), spaces collapsed and trimmed. */
export function textOf(where: Where): string {
  const parts: string[] = [];
  const walk = (node: DomNode) => {
    if (node.nodeName === 'script' || node.nodeName === 'style') return;
    if (node.nodeName === '#text') parts.push(node.value ?? '');
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(rootOf(where));
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/**
 * Every piece of text in `html` (scripts and styles left out) with what its ancestors make of it: `within` is
 * given each element and what its parent was within, and says what the element's text is within.
 */
export function textsWithin<T>(
  html: Where,
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
  walk(rootOf(html), top);
  return found;
}

/** The texts of the page's headings of one level (`h2`: the sections a person scans), whole and trimmed. */
export function headingTexts(html: Where, level: 'h1' | 'h2' | 'h3'): string[] {
  return findAll(html, level)
    .map(textOf)
    .filter((text) => text !== '');
}

/** A link as a person meets it: what it says and where it goes (entities decoded), and its element. */
export interface Link {
  text: string;
  href: string;
  rel: string[];
  node: DomNode;
}

/** Every link (an `<a>` with an href) below `where`. */
export function links(where: Where): Link[] {
  return findAll(where, { tag: 'a', attrs: { href: true } }).map((node) => ({
    text: textOf(node),
    href: attr(node, 'href')!,
    rel: attr(node, 'rel')?.split(/\s+/) ?? [],
    node,
  }));
}

/** The first link whose text is `text` (exactly, after collapsing spaces), or whose text `text` matches. */
export const linkTo = (where: Where, text: string | RegExp): Link | undefined =>
  links(where).find((l) => (typeof text === 'string' ? l.text === text : text.test(l.text)));

/** An image as a person's browser fetches it: its attributes by name (`src`, `alt`, `width`, `class` …). */
export const images = (where: Where): Record<string, string>[] =>
  findAll(where, 'img').map((node) => Object.fromEntries((node.attrs ?? []).map((a) => [a.name, a.value])));

/** A form field: an input, select, textarea or button, by its attributes. */
export interface Field {
  tag: string;
  type: string;
  name: string | undefined;
  value: string | undefined;
  checked: boolean;
  required: boolean;
  /** What a person reads on it (a button's text); empty for inputs. */
  text: string;
  node: DomNode;
}

export interface Form {
  action: string | undefined;
  method: string;
  role: string | undefined;
  fields: Field[];
  /** The hidden and filled-in fields by name, as the browser would send them without a button. */
  values: Record<string, string>;
  buttons: Field[];
  node: DomNode;
}

/** Every form below `where`, with its fields. */
export function forms(where: Where): Form[] {
  return findAll(where, 'form').map((node) => {
    const fields = findAll(node, (n: DomNode) => ['input', 'select', 'textarea', 'button'].includes(n.nodeName)).map(
      (n): Field => ({
        tag: n.nodeName,
        type: (attr(n, 'type') ?? (n.nodeName === 'button' ? 'submit' : 'text')).toLowerCase(),
        name: attr(n, 'name'),
        // A text box sends what it holds, as typed (its text, line breaks and all).
        value: n.nodeName === 'textarea' ? (n.childNodes ?? []).map((c) => c.value ?? '').join('') : attr(n, 'value'),
        checked: attr(n, 'checked') !== undefined,
        required: attr(n, 'required') !== undefined,
        text: textOf(n),
        node: n,
      }),
    );
    const sent = fields.filter(
      (f) => f.name && f.type !== 'submit' && (!['checkbox', 'radio'].includes(f.type) || f.checked),
    );
    return {
      action: attr(node, 'action'),
      method: (attr(node, 'method') ?? 'get').toLowerCase(),
      role: attr(node, 'role'),
      fields,
      values: Object.fromEntries(sent.map((f) => [f.name!, f.value ?? ''])),
      buttons: fields.filter((f) => f.type === 'submit'),
      node,
    };
  });
}

/** The form that posts to `action`, or undefined. */
export const formTo = (where: Where, action: string): Form | undefined => forms(where).find((f) => f.action === action);

/** The CSRF token the page's forms carry (the `_csrf` field), or undefined when it has none. */
export const csrfToken = (where: Where): string | undefined =>
  forms(where)
    .map((f) => f.values._csrf)
    .find((token) => token !== undefined);

/** The value of the first `data-<name>` attribute below `where`: what the page hands its script. */
export function dataOf(where: Where, name: string): string | undefined {
  const node = find(where, (n) => attr(n, `data-${name}`) !== undefined);
  return node && attr(node, `data-${name}`);
}
