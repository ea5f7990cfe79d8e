/** A tiny browser stand-in over real HTTP: keeps cookies, never follows redirects. */
export class CookieClient {
  private readonly jar = new Map<string, string>();

  constructor(private readonly base: string) {}

  get(path: string): Promise<Response> {
    return this.send(path, { method: 'GET' });
  }

  post(path: string, form: Record<string, string>): Promise<Response> {
    return this.send(path, { method: 'POST', body: new URLSearchParams(form), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }

  /** The Cookie header this client sends, for a request made another way (e.g. over its own connection). */
  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private async send(path: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set('cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(new URL(path, this.base), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }
}
