import express from 'express';
import { useViews } from '../../src/http/views';
import request from 'supertest';
import { AppError, ERROR_STATUS, type ErrorCode } from '../../src/errors';
import { GraphApiError } from '../../src/graph/errors';
import { Locales } from '../../src/i18n/catalogs';
import { ERROR_PAGES, errorHandler } from '../../src/http/errors';
import { createLogger } from '../../src/log/logger';
import { SignIns } from '../../src/session/sign-in';
import { TokenSealer } from '../../src/session/sealer';
import { LogCapture } from '../support/stack';
import { headline, operatorText } from '../support/words';

/** Any code, as the handler sees it: it reads code, status and fields, never the class. */
class Probe extends AppError {
  constructor(code: ErrorCode) {
    super(code, `probe ${code}`);
  }
}

const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** An app whose one route throws the given error, without a session (so no error is turned into a redirect). */
function appThrowing(err: unknown) {
  const logs = new LogCapture();
  const app = express();
  useViews(app);
  Object.assign(app.locals, { connected: false, flash: undefined, csrf: () => '' });
  app.get('/boom', () => {
    throw err;
  });
  app.use(
    errorHandler(
      createLogger({ level: 'info', destination: logs }),
      new SignIns(new TokenSealer(['k'.repeat(32)]), 1000, () => 0),
      new Locales(),
    ),
  );
  return { app, logs };
}

function failedLine(logs: LogCapture): { status: number; err?: { status?: number; code?: string } } {
  const line = logs.lines.map((l) => JSON.parse(l) as { msg: string }).find((l) => l.msg === 'request failed');
  if (!line) throw new Error(`no "request failed" line in ${logs.text}`);
  return line as never;
}

describe('error pages', () => {
  it('when the codes are listed, then every one has a status and a page (the Records make this a compile-time fact)', () => {
    expect(Object.keys(ERROR_PAGES).sort()).toEqual([...CODES].sort());
  });

  it.each(CODES)(
    'when an error with code %s is thrown, then the response has its status and the log line the same one',
    async (code) => {
      const { app, logs } = appThrowing(new Probe(code));
      const res = await request(app).get('/boom');
      expect(res.status).toBe(ERROR_STATUS[code]);
      // A headline in words, never the status; the status is in the operator's details.
      const title = headline(res.text);
      expect(title.length).toBeGreaterThan(5);
      expect(title).not.toContain(String(res.status));
      expect(operatorText(res.text)).toContain(`Status ${res.status}`);
      const line = failedLine(logs);
      expect(line.status).toBe(res.status);
      expect(line.err?.status).toBe(res.status);
      expect(line.err?.code).toBe(code);
    },
  );

  it('when the provider rate-limits with a wait, then the wait is in the constructor and in Retry-After', async () => {
    const err = new GraphApiError(
      { code: 4, message: 'limit', type: 'OAuthException', subcode: undefined, fbtraceId: 'Atrace' },
      403,
      120,
    );
    expect(err.retryAfterSec).toBe(120);
    const res = await request(appThrowing(err).app).get('/boom').expect(429);
    expect(res.headers['retry-after']).toBe('120');
    expect(res.text).toContain('about 2 minutes');
  });

  it('when the provider says an object does not exist (code 100, subcode 33), then the error itself is a 404', async () => {
    const err = new GraphApiError(
      {
        code: 100,
        message: 'Unsupported get request',
        type: 'GraphMethodException',
        subcode: 33,
        fbtraceId: undefined,
      },
      400,
    );
    expect(err.code).toBe('graph_not_found');
    expect(err.status).toBe(404);
    const res = await request(appThrowing(err).app).get('/boom').expect(404);
    expect(res.text).toContain('Page not found');
  });

  it('when something that is not an AppError is thrown, then 500 and the log says 500', async () => {
    const { app, logs } = appThrowing(new Error('kaboom'));
    const res = await request(app).get('/boom').expect(500);
    expect(res.text).not.toContain('kaboom');
    expect(failedLine(logs).status).toBe(500);
  });
});
