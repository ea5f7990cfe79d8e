import type { Config } from '../config';

/**
 * Whether the app asks for `scope` at login (FB_SCOPES). A feature whose permission it does not ask for is not
 * offered; reached anyway, its screen says once that whoever runs the site can turn it on, and never offers
 * **Ask again**: the dialog would ask again without it, and the person would land on the same screen
 * (docs/operations.md#permissions).
 */
export function asksFor(config: Pick<Config, 'scopes'>, scope: string): boolean {
  return config.scopes.includes(scope);
}
