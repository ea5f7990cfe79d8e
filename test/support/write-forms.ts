import { attr, find, forms, type DomNode } from './dom';
import type { Agent } from './stack';

/**
 * The forms of the one write path (docs/architecture.md#writes) as a person meets them: what each asks (`do`, on
 * `target`), the words of its button, and its text box (what it holds, its label), found through ./dom.ts.
 */
export interface WriteForm {
  action: string;
  /** What the browser sends without the text box: `_csrf`, `_key`, `do`, `target`. */
  values: Record<string, string>;
  button: string;
  /** The text box, when the form has one. */
  textbox?: { name: string; value: string; label: string };
}

/** Every form of the write path below `where` (a page's HTML, or a node of it such as one comment). */
export function writeForms(where: string | DomNode): WriteForm[] {
  return forms(where)
    .filter((f) => f.values.do !== undefined)
    .map((f) => {
      const box = f.fields.find((field) => field.tag === 'textarea');
      const id = box ? attr(box.node, 'id') : undefined;
      const label = id === undefined ? undefined : find(f.node, { tag: 'label', attrs: { for: id } });
      const values = Object.fromEntries(Object.entries(f.values).filter(([name]) => name !== box?.name));
      return {
        action: f.action ?? '',
        values,
        button: f.buttons[0]?.text ?? '',
        ...(box
          ? { textbox: { name: box.name ?? '', value: box.value ?? '', label: label ? textOfLabel(label) : '' } }
          : {}),
      };
    });
}

function textOfLabel(node: DomNode): string {
  return (node.childNodes ?? [])
    .map((c) => c.value ?? '')
    .join('')
    .trim();
}

/** The form asking `what` of `target` below `where`; fails the test when there is none. */
export function writeForm(where: string | DomNode, what: string, target: string): WriteForm {
  const form = writeForms(where).find((f) => f.values.do === what && f.values.target === target);
  if (!form) throw new Error(`no ${what} form for ${target}`);
  return form;
}

/** Sends a form as the browser would, the text box holding `text` (or what it held). */
export function sendForm(agent: Agent, form: WriteForm, text?: string) {
  const body = { ...form.values, ...(form.textbox ? { [form.textbox.name]: text ?? form.textbox.value } : {}) };
  return agent.post(form.action).type('form').send(body);
}
