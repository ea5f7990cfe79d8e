/**
 * The OpenAPI document of the control API (docs/control-api.openapi.json) is the routes the emulator serves:
 * the file is what scripts/openapi.ts generates from the route table now, the controls mount exactly the routes
 * it lists, each answers (none is an unknown control), and each request body is the zod schema the route parses.
 */
import { readFileSync } from 'node:fs';
import type { Router } from 'express';
import request from 'supertest';
import { z } from 'zod';
import { OPENAPI_FILE, controlApiDocument, controlApiJson } from '../scripts/openapi';
import { createEmulator, SEED_IDS } from '../src';
import { createContext } from '../src/context';
import { createControls } from '../src/controls/api';
import { controlsRouter } from '../src/controls/http';
import { CONTROL_ROUTES } from '../src/controls/routes';
import { CLIENT } from './helpers';

interface Operation {
  operationId: string;
  requestBody?: { content: { 'application/json': { schema: unknown } } };
}
type Document = { paths: Record<string, Record<string, Operation>> };

const documented = (): Document => JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Document;
const operations = (doc: Document): [string, string, Operation][] =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]): [string, string, Operation] => [method, path, op]),
  );

/** `METHOD /path` of every route an Express router mounts, nested routers included. */
function mounted(router: Router, prefix = ''): string[] {
  return router.stack.flatMap((layer) => {
    const route = layer.route as { path: string; methods: Record<string, boolean> } | undefined;
    if (route !== undefined) {
      return Object.keys(route.methods).map((m) => `${m.toUpperCase()} ${prefix}${route.path}`);
    }
    const nested = (layer.handle as Partial<Router>).stack;
    return nested === undefined ? [] : mounted(layer.handle as Router, prefix);
  });
}

describe('the control API’s OpenAPI document', () => {
  it('when the routes change, then docs/control-api.openapi.json is regenerated with them (npx tsx scripts/openapi.ts)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(controlApiJson());
  });

  it('when the controls are mounted, then every route is documented and every documented route mounted', () => {
    const ctx = createContext({ clients: [CLIENT] });
    const served = mounted(controlsRouter(ctx, createControls(ctx)), '/__emulator')
      .map((r) => r.replace(/:(\w+)/g, '{$1}'))
      .sort();
    const inDocument = operations(documented())
      .map(([method, path]) => `${method.toUpperCase()} ${path}`)
      .sort();
    expect(served).toEqual(inDocument);
    expect(inDocument).toHaveLength(Object.keys(CONTROL_ROUTES).length);
  });

  it('when each documented route is called, then the emulator answers it, never as an unknown control', async () => {
    const { app } = createEmulator({ clients: [CLIENT], httpControls: true, seed: 'test' });
    for (const [method, path] of operations(documented())) {
      const url = path.replace(/\{\w+\}/g, SEED_IDS.pages.bakery);
      const call = request(app)[method as 'get' | 'post' | 'put' | 'delete'](url);
      const res =
        method === 'post' || method === 'put'
          ? await call.set('content-type', 'application/json').send('{}')
          : await call;
      const answer = {
        route: `${method} ${path}`,
        unknown: res.status === 404 && res.body.error === 'Unknown emulator control',
      };
      expect(answer).toEqual({ route: answer.route, unknown: false });
    }
  });

  it('when a route takes a body, then the document describes it with the JSON Schema of the zod schema it parses', () => {
    const byId = new Map(operations(documented()).map(([, , op]) => [op.operationId, op]));
    for (const [id, route] of Object.entries(CONTROL_ROUTES)) {
      const given = byId.get(id)?.requestBody?.content['application/json'].schema;
      if (!('body' in route)) {
        expect({ id, given }).toEqual({ id, given: undefined });
        continue;
      }
      const { $schema, ...expected } = z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' });
      expect($schema).toBeDefined();
      expect({ id, given }).toEqual({ id, given: expected });
    }
    expect(controlApiDocument().components.schemas.Failure).toMatchObject({ oneOf: expect.any(Array) });
  });
});
