/**
 * docs/control-api.openapi.json, the OpenAPI 3.1 document of the HTTP controls (docs/control-api.md), generated
 * from the route table the emulator mounts (src/controls/routes.ts): each body's and query's schema is the JSON
 * Schema of the zod schema the route parses (zod's own export, as scripts/seed-schema.ts). `npx tsx
 * scripts/openapi.ts` rewrites it; test/openapi.test.ts fails when it is stale or disagrees with the routes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { failureSchema } from '../src/controls/schemas';
import { CONTROL_ROUTES, type ControlRoute } from '../src/controls/routes';

export const OPENAPI_FILE = path.resolve(__dirname, '..', 'docs', 'control-api.openapi.json');

type JsonSchema = Record<string, unknown>;

/** zod's JSON Schema of what a caller sends, without `$schema`: OpenAPI 3.1 schemas are JSON Schema 2020-12. */
function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  void $schema;
  return rest;
}

const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function operation(id: string, route: ControlRoute): JsonSchema {
  const parameters = [
    ...[...route.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', pattern: '^\\d+$' },
    })),
    ...queryParameters(route.query),
  ];
  const answer =
    route.status === 204
      ? { description: 'Done; no body' }
      : { description: route.answer, content: { 'application/json': { schema: {} } } };
  return {
    operationId: id,
    summary: route.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body !== undefined
      ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body) } } } }
      : {}),
    responses: {
      [String(route.status)]: answer,
      ...(route.body !== undefined || parameters.length > 0
        ? { '400': { $ref: '#/components/responses/BadRequest' } }
        : {}),
      '403': { $ref: '#/components/responses/Forbidden' },
      ...(route.method === 'post' || route.method === 'put'
        ? { '415': { $ref: '#/components/responses/UnsupportedMediaType' } }
        : {}),
    },
  };
}

function queryParameters(query: z.ZodType | undefined): JsonSchema[] {
  if (query === undefined) return [];
  const schema = jsonSchema(query) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: property,
  }));
}

export function controlApiDocument() {
  const { version } = JSON.parse(readFileSync(path.resolve(__dirname, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [id, route] of Object.entries(CONTROL_ROUTES) as [string, ControlRoute][]) {
    const at = `/__emulator${route.path.replace(/:(\w+)/g, '{$1}')}`;
    paths[at] = { ...paths[at], [route.method]: operation(id, route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'graph-emulator control API',
      version,
      description:
        'The test controls of @pagelight/graph-emulator over HTTP: seed, reset, snapshot, tokens without the ' +
        'dialog, scripted failures, throttling, latency, the clock, the request log, webhooks and activity. They ' +
        'exist only with httpControls (the bin has them), answer only a loopback Host or the names in ' +
        'EMULATOR_HOSTS, and take POST and PUT bodies as application/json only. In depth: docs/reference.md.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'http://127.0.0.1:3001', description: 'npx graph-emulator (PROVIDER_PORT)' }],
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          properties: { error: { type: 'string', description: 'One line naming each bad field' } },
          required: ['error'],
        },
        Failure: {
          ...jsonSchema(failureSchema),
          description: 'A scripted failure; a Graph error ({ status?, error }) may leave out kind',
        },
      },
      responses: {
        BadRequest: error('A bad body, query or id, named in one line; nothing changed'),
        Forbidden: error('A Host that is neither loopback nor one the emulator was opened to'),
        UnsupportedMediaType: error('A body that is not application/json'),
      },
    },
  };
}

export function controlApiJson(): string {
  return `${JSON.stringify(controlApiDocument(), null, 2)}\n`;
}

if (require.main === module) {
  writeFileSync(OPENAPI_FILE, controlApiJson());
  console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
}
