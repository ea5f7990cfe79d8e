import type { EmulatorClient } from './types';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A Host header split into its name (lower case) and port (80 when absent); undefined when malformed. */
function hostParts(host: string | undefined): { name: string; port: number } | undefined {
  const match = host === undefined ? null : /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(host);
  return match === null ? undefined : { name: match[1]!.toLowerCase(), port: Number(match[2] ?? 80) };
}

/**
 * `host` is a loopback name, with the port the emulator listens on when that is known: the HTTP controls
 * answer nothing else, so a page on another site that rebinds its name to this address (DNS rebinding) gets no
 * answer from them.
 */
export function loopbackHost(
  host: string | undefined,
  port: number | undefined,
  opened: ReadonlySet<string> = new Set(),
): boolean {
  const parts = hostParts(host);
  return (
    parts !== undefined &&
    (LOOPBACK_NAMES.has(parts.name) || opened.has(parts.name)) &&
    (port === undefined || parts.port === port)
  );
}

/** A listening address on this machine only: the emulator binds nothing else unless told to (README#on-its-own). */
export function loopbackAddress(address: string): boolean {
  return address === 'localhost' || address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

/**
 * `host` is a name the emulator's pages are opened by: a loopback name, or the host of a registered app's
 * redirect URI (the demo opens the dialog on the app's own host name), with the emulator's port when known.
 */
export function knownHost(
  host: string | undefined,
  port: number | undefined,
  clients: Iterable<EmulatorClient>,
  opened: ReadonlySet<string> = new Set(),
): boolean {
  if (loopbackHost(host, port, opened)) return true;
  const parts = hostParts(host);
  if (parts === undefined || (port !== undefined && parts.port !== port)) return false;
  for (const client of clients) if (new URL(client.redirectUri).hostname.toLowerCase() === parts.name) return true;
  return false;
}
