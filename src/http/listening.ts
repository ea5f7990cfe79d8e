import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
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
  // Behind a proxy (several instances share one BASE_URL) its port is the proxy's: naming it would send an
  // operator to a port this process does not listen on (docs/operations.md#several-instances).
  const url = new URL(config.baseUrl);
  const basePort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (basePort !== port)
    return `Pagelight is listening on ${bound} port ${port} (sessions in ${store}${why}); people reach it at BASE_URL, through the proxy in front of it`;
  return `Pagelight is listening on ${config.baseUrl} (bound to ${bound} port ${port}, sessions in ${store}${why})`;
}

/**
 * What is wrong with HOST before anything starts, as the rest of a configuration line, or undefined: a name
 * that resolves to no address would otherwise fail at `listen`, after the demo provider started.
 */
export async function hostProblem(host: string | undefined): Promise<string | undefined> {
  if (host === undefined || isIP(host) !== 0) return undefined;
  try {
    await lookup(host);
    return undefined;
  } catch {
    return `"${host}" is not an address and no address is found for it as a host name; use an address such as 127.0.0.1, 0.0.0.0 or ::`;
  }
}

/** The configuration line for a listener that could not start, or undefined for a fault that is not configuration. */
export function listenProblem(
  code: string | undefined,
  port: { variable: string; value: number },
  host: { variable: string; value: string | undefined },
): string | undefined {
  switch (code) {
    case 'EADDRINUSE':
      return `${port.variable}: port ${port.value} is already in use; set ${port.variable} to a free port`;
    case 'EACCES':
      return `${port.variable}: port ${port.value} is not allowed; set ${port.variable} to a free port`;
    case 'EADDRNOTAVAIL':
      return `${host.variable}: ${host.value} is not an address of this machine; use one of its addresses, 0.0.0.0 or ::`;
    case 'ENOTFOUND':
      return `${host.variable}: "${host.value}" is not an address and no address is found for it as a host name; use an address such as 127.0.0.1, 0.0.0.0 or ::`;
    default:
      return undefined;
  }
}
