/**
 * The calls floor of `npm run bench`: a bare Express app that, for each view, makes only the provider calls the
 * app made for that view (taken from the emulator's log of one app view), through the app's transport (keep-alive
 * axios, the same checks of each answer), and answers a few bytes. No session, no template, no view model: what
 * the view's provider calls cost by themselves, so the app's rows over it grow with the templates and the code
 * around them (which the other floors, rendering the app's own templates, cannot show).
 *
 * Env: PORT, GRAPH_URL, PAGE_TOKEN, APP_SECRET, FLOOR_CALLS (JSON: view name → the calls, see Call).
 */
import express from 'express';
import { z } from 'zod';
import { appSecretProof } from '../src/graph/proof';
import { GraphTransport } from '../src/graph/transport';

/** One logged provider call, without its credentials (the floor adds its own token and proof). */
export interface Call {
  method: 'GET' | 'POST';
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

function main(): void {
  const transport = new GraphTransport({ baseUrl: required('GRAPH_URL'), timeoutMs: 5000, now: Date.now });
  const token = required('PAGE_TOKEN');
  const proof = { appsecret_proof: appSecretProof(token, required('APP_SECRET')) };
  const views = JSON.parse(required('FLOOR_CALLS')) as Record<string, Call[]>;
  const send = (call: Call) =>
    call.method === 'POST'
      ? transport.call(
          { method: 'POST', path: call.path, form: { ...call.form, ...proof, access_token: token }, idempotent: true },
          z.unknown(),
        )
      : transport.call(
          { method: 'GET', path: call.path, query: { ...call.query, ...proof }, bearer: token, idempotent: true },
          z.unknown(),
        );
  const app = express();
  app.set('etag', false);
  app.get('/views/:name', (req, res, next) => {
    const calls = views[req.params.name];
    if (!calls) return res.status(404).end();
    // In parallel, as the app's loads make them.
    Promise.all(calls.map(send)).then(() => res.type('text').send('floor'), next);
  });
  const server = app.listen(Number(required('PORT')), '127.0.0.1', () => process.stdout.write('floor listening\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

main();
