import express from 'express';
import request from 'supertest';
import { createLogger } from '../../src/log/logger';
import { requestLogging } from '../../src/log/request-log';
import { LogCapture } from '../support/stack';
import { eventually } from '../support/wait';

/** An app with only the request logging and a few answers, logging at `level` into a capture. */
function appLogging(level: string) {
  const logs = new LogCapture();
  const app = express();
  app.use(
    requestLogging(createLogger({ level, destination: logs }), {
      trustRequestId: false,
      ignore: (req) => req.url === '/healthz',
    }),
  );
  app.get('/ok', (_req, res) => res.send('ok'));
  app.get('/noted', (req, res) => {
    req.log.info({ note: 1 }, 'a line from a route');
    res.send('noted');
  });
  app.get('/missing', (_req, res) => res.status(404).send('no'));
  app.get('/broken', (_req, res) => res.status(500).send('broken'));
  app.get('/healthz', (_req, res) => res.status(500).send('down'));
  const lines = () => logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { app, lines };
}

/** The completion lines so far: written from the response's 'close', just after the client has the answer. */
const completions = (lines: () => Record<string, unknown>[]) =>
  lines().filter((l) => l.msg === 'request completed' || l.msg === 'request errored');

describe('requestLogging', () => {
  it('when a route logs through req.log, then its line carries the request id, method and URL', async () => {
    const { app, lines } = appLogging('info');
    const res = await request(app).get('/noted?code=AQBsecret').expect(200);
    const line = lines().find((l) => l.msg === 'a line from a route')!;
    expect(line.req).toEqual({ id: res.headers['x-request-id'], method: 'GET', url: '/noted?code=[redacted]' });
    expect(line.note).toBe(1);
  });

  it('when answers complete at level info, then a 5xx is an error line, a 4xx an info line and a 2xx no line', async () => {
    const { app, lines } = appLogging('info');
    await request(app).get('/ok').expect(200);
    await request(app).get('/missing').expect(404);
    const broken = await request(app).get('/broken').expect(500);
    // The lines come in the order of the answers: once the 500's is there, so is any before it.
    await eventually(() => completions(lines).length >= 2);
    const done = completions(lines);
    expect(done.map((l) => [l.level, l.msg, (l.res as { statusCode: number }).statusCode])).toEqual([
      ['info', 'request completed', 404],
      ['error', 'request errored', 500],
    ]);
    expect((done[1]!.req as { id: string }).id).toBe(broken.headers['x-request-id']);
    expect(typeof done[1]!.responseTime).toBe('number');
  });

  it('when the level is debug, then a 2xx is logged too; an ignored path never is', async () => {
    const { app, lines } = appLogging('debug');
    await request(app).get('/ok').expect(200);
    await request(app).get('/healthz').expect(500);
    // A logged answer after the ignored one: once its line is there, a line for /healthz would be too.
    await request(app).get('/missing').expect(404);
    await eventually(() => completions(lines).some((l) => (l.req as { url: string }).url === '/missing'));
    const done = completions(lines).filter((l) => (l.req as { url: string }).url !== '/missing');
    expect(done.map((l) => [l.level, (l.req as { url: string }).url])).toEqual([['debug', '/ok']]);
  });
});
