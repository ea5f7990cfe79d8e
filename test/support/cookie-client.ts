/**
 * A tiny browser stand-in over real HTTP: one cookie jar, never follows redirects.
 * Paths resolve against `base`; absolute URLs may point at other origins (several
 * app instances behind one load balancer share the jar, as a browser would see them).
 */
export class CookieClient {
  readonly jar = new Map<string, string>();

  constructor(
    private readonly base?: string,
    /** Per request; none by default. */
    private readonly timeoutMs?: number,
  ) {}

  get(url: string): Promise<Response> {
    return this.send(url, { method: 'GET' });
  }

  post(url: string, form: Record<string, string>): Promise<Response> {
    return this.send(url, {
      method: 'POST',
      body: new URLSearchParams(form),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  /** A form sent as multipart/form-data, its fields in order (a form that may carry a file, such as the composer). */
  postMultipart(url: string, form: Record<string, string>): Promise<Response> {
    const body = new FormData();
    for (const [name, value] of Object.entries(form)) body.append(name, value);
    return this.send(url, { method: 'POST', body });
  }

  /** The Cookie header this client sends, for a request made another way (e.g. over its own connection). */
  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** The session id inside the signed cookie (`s:<sid>.<signature>`). */
  sessionId(): string | undefined {
    const raw = this.jar.get('pagelight');
    if (!raw) return undefined;
    return /^s:([^.]+)\./.exec(decodeURIComponent(raw))?.[1];
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set('cookie', this.cookieHeader());
    const res = await fetch(new URL(url, this.base), {
      ...init,
      headers,
      redirect: 'manual',
      ...(this.timeoutMs ? { signal: AbortSignal.timeout(this.timeoutMs) } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }
}
