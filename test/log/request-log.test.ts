import express from 'express';
import request from 'supertest';
import { createLogger } from '../../src/log/logger';
import { useRequestLogging } from '../../src/log/request-log';
import { LogCapture } from '../support/stack';

/** An app with only the request logging (no access lines: test/log/access-log.test.ts has those), logging into a capture. */
function appLogging() {
  const logs = new LogCapture();
  const app = express();
  useRequestLogging(app, createLogger({ level: 'info', destination: logs }), {
    trustRequestId: false,
    requests: 'off',
  });
  app.get('/noted', (req, res) => {
    req.log.info({ note: 1 }, 'a line from a route');
    res.send('noted');
  });
  const lines = () => logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { app, lines };
}

describe('useRequestLogging', () => {
  it('when a route logs through req.log, then its line carries the request id, method and URL', async () => {
    const { app, lines } = appLogging();
    const res = await request(app).get('/noted?code=AQBsecret').expect(200);
    const line = lines().find((l) => l.msg === 'a line from a route')!;
    expect(line.req).toEqual({ id: res.headers['x-request-id'], method: 'GET', url: '/noted?code=[redacted]' });
    expect(line.note).toBe(1);
  });

  it('when two requests log, then each line carries its own request, not the first one logged', async () => {
    const { app, lines } = appLogging();
    const first = await request(app).get('/noted?n=1').expect(200);
    const second = await request(app).get('/noted?n=2').expect(200);
    const logged = lines().filter((l) => l.msg === 'a line from a route');
    expect(logged.map((l) => l.req)).toEqual([
      { id: first.headers['x-request-id'], method: 'GET', url: '/noted?n=1' },
      { id: second.headers['x-request-id'], method: 'GET', url: '/noted?n=2' },
    ]);
  });
});
