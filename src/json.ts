/**
 * JSON text to a value, or `undefined` when it is not JSON: for text from
 * outside (the provider's answers and headers, webhook deliveries, stored
 * sessions and cache entries, messages between instances), where a bad body
 * is an outcome to handle, not an exception. JSON itself has no `undefined`,
 * so the answer is unambiguous.
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
