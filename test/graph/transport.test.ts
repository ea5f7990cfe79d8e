import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import http, { type RequestListener } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { z } from 'zod';
import { ProviderUnavailableError } from '../../src/graph/errors';
import { GraphTransport, type GraphRequest } from '../../src/graph/transport';
import { listen } from '../support/stack';

/**
 * The transport's contract on a read (GET, through undici on the one keep-alive agent): the deadline, the body limit,
 * compressed answers, no redirects, and every failure as a ProviderUnavailableError with its reason.
 */
const READ: GraphRequest = {
  method: 'GET',
  path: '/v26.0/123/feed',
  query: { limit: '25' },
  bearer: 'page-token',
  idempotent: true,
};
const anything = z.unknown();

async function readFrom(handler: RequestListener, timeoutMs = 300) {
  const provider = await listen(handler);
  const transport = new GraphTransport({ baseUrl: provider.url, timeoutMs, now: Date.now });
  try {
    return await transport.call(READ, anything).then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error }),
    );
  } finally {
    transport.close();
    await provider.close();
  }
}

function reasonOf(error: unknown): string | undefined {
  return error instanceof ProviderUnavailableError ? error.reason : undefined;
}

describe('GraphTransport, a read', () => {
  it('when the provider answers, then the path, query, bearer token and accepted encodings go out as asked', async () => {
    const seen: Record<string, unknown>[] = [];
    const { value } = await readFrom((req, res) => {
      seen.push({ url: req.url, authorization: req.headers.authorization, encodings: req.headers['accept-encoding'] });
      res.setHeader('content-type', 'application/json');
      res.end('{"data":[]}');
    });
    expect(value).toEqual({ data: [] });
    expect(seen).toEqual([
      { url: '/v26.0/123/feed?limit=25', authorization: 'Bearer page-token', encodings: 'gzip, deflate, br' },
    ]);
  });

  it('when the answer is gzip-compressed, then it is read as the JSON it holds', async () => {
    const { value } = await readFrom((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('content-encoding', 'gzip');
      res.end(gzipSync('{"data":[{"id":"1"}]}'));
    });
    expect(value).toEqual({ data: [{ id: '1' }] });
  });

  it.each([
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('when the answer is %s-compressed, then it is read as the JSON it holds', async (encoding, compress) => {
    const { value } = await readFrom((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('content-encoding', encoding);
      res.end(compress('{"data":[{"id":"1"}]}'));
    });
    expect(value).toEqual({ data: [{ id: '1' }] });
  });

  it('when the answer says gzip but is not, then bad_response', async () => {
    const { error } = await readFrom((_req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.end('{"data":[]}');
    });
    expect(reasonOf(error)).toBe('bad_response');
  });

  it('when the answer comes in an encoding that was not asked for, then bad_response', async () => {
    const { error } = await readFrom((_req, res) => {
      res.setHeader('content-encoding', 'compress');
      res.end('{"data":[]}');
    });
    expect(reasonOf(error)).toBe('bad_response');
  });

  it('when a gzip answer inflates past 2 MB, then bad_response', async () => {
    const { error } = await readFrom((_req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.end(gzipSync(`{"data":"${'x'.repeat(3 * 1024 * 1024)}"}`));
    }, 2000);
    expect(reasonOf(error)).toBe('bad_response');
  });

  it('when the answer says it is larger than 2 MB, then bad_response without reading it', async () => {
    const { error } = await readFrom((_req, res) => {
      res.setHeader('content-length', String(3 * 1024 * 1024));
      res.write('{"data":[');
    });
    expect(reasonOf(error)).toBe('bad_response');
  });

  it('when a chunked answer grows past 2 MB, then bad_response', async () => {
    const { error } = await readFrom((_req, res) => {
      const chunk = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 40; i++) res.write(chunk);
      res.end();
    }, 2000);
    expect(reasonOf(error)).toBe('bad_response');
  });

  it('when the headers come at once but the body never ends, then timeout at the deadline of the whole exchange', async () => {
    const started = Date.now();
    const { error } = await readFrom((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.write('{"data":');
      const drip = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(drip));
    });
    expect(reasonOf(error)).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('when the provider redirects, then the redirect is not followed: http_error', async () => {
    let calls = 0;
    const { error } = await readFrom((_req, res) => {
      calls++;
      res.statusCode = 302;
      res.setHeader('location', '/elsewhere');
      res.end();
    });
    expect(reasonOf(error)).toBe('http_error');
    expect(calls).toBe(1);
  });

  it('when the connection is cut mid-answer, then unreachable', async () => {
    const { error } = await readFrom((req, res) => {
      res.setHeader('content-length', '100');
      res.write('{"data":');
      setTimeout(() => req.socket.destroy(), 10);
    });
    expect(reasonOf(error)).toBe('unreachable');
  });

  it('when HTTP_PROXY names a proxy, then the call goes through it, as the operator asked', async () => {
    const provider = await listen((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"data":[]}');
    });
    // A proxy as undici speaks to one: CONNECT to the provider's host, then the bytes both ways.
    const tunnels: string[] = [];
    const proxy = http.createServer();
    proxy.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      const { hostname, port } = new URL(provider.url);
      const upstream = connect(Number(port), hostname, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const before = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const transport = new GraphTransport({ baseUrl: provider.url, timeoutMs: 1000, now: Date.now });
    try {
      expect(await transport.call(READ, anything)).toEqual({ data: [] });
      expect(tunnels).toEqual([new URL(provider.url).host]);
    } finally {
      if (before === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = before;
      transport.close();
      proxy.closeAllConnections();
      proxy.close();
      await provider.close();
    }
  });

  it('when nothing listens, then unreachable with the network error code', async () => {
    const provider = await listen();
    await provider.close();
    const transport = new GraphTransport({ baseUrl: provider.url, timeoutMs: 300, now: Date.now });
    const error = await transport.call(READ, anything).catch((e: unknown) => e);
    transport.close();
    expect(reasonOf(error)).toBe('unreachable');
    expect((error as Error).message).toContain('ECONNREFUSED');
  });
});

describe('GraphTransport, a write', () => {
  const WRITE: GraphRequest = {
    method: 'POST',
    path: '/v26.0/oauth/access_token',
    form: { code: 'the-code' },
    idempotent: false,
    tokenEndpoint: true,
  };

  it('when the provider answers, then the form goes out encoded, through the same stack as a read', async () => {
    const seen: Record<string, unknown>[] = [];
    const provider = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen.push({
          method: req.method,
          type: req.headers['content-type'],
          encodings: req.headers['accept-encoding'],
          body,
        });
        res.setHeader('content-type', 'application/json');
        res.end('{"access_token":"t"}');
      });
    });
    const transport = new GraphTransport({ baseUrl: provider.url, timeoutMs: 300, now: Date.now });
    try {
      await expect(transport.call(WRITE, anything)).resolves.toEqual({ access_token: 't' });
    } finally {
      transport.close();
      await provider.close();
    }
    expect(seen).toEqual([
      {
        method: 'POST',
        type: 'application/x-www-form-urlencoded',
        encodings: 'gzip, deflate, br',
        body: 'code=the-code',
      },
    ]);
  });

  it('when the body never ends, then timeout at the deadline of the whole exchange, as for a read', async () => {
    const provider = await listen((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.write('{"access_token":');
      const drip = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(drip));
    });
    const transport = new GraphTransport({ baseUrl: provider.url, timeoutMs: 300, now: Date.now });
    const started = Date.now();
    const error = await transport.call(WRITE, anything).catch((e: unknown) => e);
    transport.close();
    await provider.close();
    expect(reasonOf(error)).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
