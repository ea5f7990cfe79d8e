import type { Config } from '../config';

/**
 * The start-up line: the public URL, the address and port bound, where sessions live and, in demo mode on
 * loopback, why (docs/operations.md#host).
 */
export function listeningLine(
  config: Pick<Config, 'baseUrl' | 'demo' | 'host'>,
  address: string,
  port: number,
  store: string,
): string {
  const bound = config.host === undefined ? `every interface (${address})` : address;
  const why =
    config.demo && config.host === '127.0.0.1'
      ? '; demo mode listens on loopback only, because its app secret is published and anyone who reached it could forge its provider callbacks (set HOST to change)'
      : '';
  return `Pagelight is listening on ${config.baseUrl} (bound to ${bound} port ${port}, sessions in ${store}${why})`;
}
