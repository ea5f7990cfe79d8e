/**
 * `raw` as an absolute http: or https: URL, or `undefined` when it is anything else (relative, `javascript:`,
 * `data:`, not a URL at all): the one test of "a web URL" for configuration, provider answers and links. The
 * emulator package has its own, as it stands alone (packages/graph-emulator/README.md#layout-and-commands).
 */
export function webUrl(raw: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}

/** A request's URL (`req.url`) without its query: without splitting it into an array, as this runs on requests. */
export function withoutQuery(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
