/**
 * One outgoing HTTP request from the emulator to an app's callback URL, with
 * a deadline. Small on purpose: no redirects followed (the provider does not
 * follow them either), the answer's body read up to 64 KB and otherwise drained.
 */
import http from 'node:http';
import https from 'node:https';

export interface SendResult {
  /** null when there was no answer (refused, reset, timed out). */
  status: number | null;
  body: string;
  error?: string;
}

const MAX_BODY = 64 * 1024;

export class Sender {
  private readonly agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  private readonly open = new Set<http.ClientRequest>();

  constructor(private readonly timeoutMs: number) {}

  send(url: URL, method: 'GET' | 'POST', headers: Record<string, string>, body?: string): Promise<SendResult> {
    const secure = url.protocol === 'https:';
    const request = secure ? https.request : http.request;
    return new Promise((resolve) => {
      const req = request(url, { method, headers, agent: secure ? this.agents.https : this.agents.http });
      this.open.add(req);
      const done = (result: SendResult): void => {
        this.open.delete(req);
        clearTimeout(timer);
        resolve(result);
      };
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      timer.unref();
      req.on('error', (err) => done({ status: null, body: '', error: err.message }));
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < MAX_BODY) text += chunk.slice(0, MAX_BODY - text.length);
        });
        res.on('end', () => done({ status: res.statusCode ?? null, body: text }));
        res.on('error', (err) => done({ status: null, body: '', error: err.message }));
      });
      req.end(body);
    });
  }

  /** Aborts requests in flight and closes idle connections. */
  dispose(): void {
    for (const req of this.open) req.destroy(new Error('emulator closed'));
    this.open.clear();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
