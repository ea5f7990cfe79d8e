/**
 * Page fields the provider removed out of cycle: it does that for every API version at once (Graph API
 * changelog, "Out-Of-Cycle Changes"), and a read that still asks for one is refused as if the field had
 * never existed (code 100, "Tried accessing nonexisting field (…) on node type (Page)"). Set with the
 * `removedFields` option, EMULATOR_REMOVED_FIELDS or the `setRemovedFields` control (README#removed-fields).
 */
import { isSettablePageField } from './store/data';

/** The names, checked: each must be a Page field the emulator serves; `id` is never removed. */
export function checkRemovedFields(fields: readonly string[], what: string): string[] {
  const bad = fields.find((f) => !isSettablePageField(f));
  if (bad !== undefined) throw new Error(`${what}: "${bad.slice(0, 60)}" is not a Page field that can be removed`);
  return [...new Set(fields)];
}

export class RemovedFields {
  private current: Set<string>;

  constructor(private readonly initial: readonly string[]) {
    this.current = new Set(initial);
  }

  /** The first of `asked` that is removed, in the order asked: the provider names one field per error. */
  firstOf(asked: readonly string[]): string | undefined {
    return asked.find((name) => this.current.has(name));
  }

  set(fields: readonly string[]): void {
    this.current = new Set(fields);
  }

  list(): string[] {
    return [...this.current];
  }

  /** Back to what the emulator was started with. */
  reset(): void {
    this.current = new Set(this.initial);
  }
}
