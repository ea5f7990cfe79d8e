import type { Logger } from '../log/logger';
import type { GraphApiError } from './errors';

/**
 * Fields the provider refused to read, per call shape (`/v26.0/{id}`), for the life of the process. The provider
 * removes Page and insight fields out of cycle, for every version at once (docs/provider-interface.md#removed-fields):
 * once a field is known to be gone, later reads leave it out instead of failing a call first. Bounded by the
 * fields the app asks for, a few dozen names.
 */
export class RemovedFields {
  private readonly known = new Set<string>();

  constructor(
    private readonly apiVersion: string,
    private readonly logger: Logger | undefined,
  ) {}

  /** `fields` without those known to be removed on `shape`; a field is matched by its name (`picture.type(large)` is `picture`). */
  without(shape: string, fields: readonly string[]): string[] {
    return fields.filter((field) => !this.known.has(key(shape, fieldName(field))));
  }

  /**
   * Learns from a refusal: true when `err` refused one of `asked` that the read can do without, so a retry
   * without it makes progress. The first time a field is learned, the operator gets one warning naming it.
   */
  learn(shape: string, asked: readonly string[], required: readonly string[], err: GraphApiError): boolean {
    const field = err.refusedField;
    if (field === undefined || required.includes(field) || !asked.some((f) => fieldName(f) === field)) return false;
    if (this.known.has(key(shape, field))) return true;
    this.known.add(key(shape, field));
    this.logger?.warn(
      { field, apiVersion: this.apiVersion, call: shape, providerMessage: err.message, fbtrace_id: err.fbtraceId },
      `the provider removed a Page field: "${field}" is left out of every read from now on (docs/operations.md#removed-fields)`,
    );
    return true;
  }
}

function key(shape: string, field: string): string {
  return `${shape} ${field}`;
}

/** The name a `fields` item asks for: `picture.type(large)` → `picture`, `attachments{media}` → `attachments`. */
function fieldName(item: string): string {
  return /^[a-z_][a-z0-9_]*/i.exec(item)?.[0] ?? item;
}
