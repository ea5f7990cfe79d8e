import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphApiError } from '../../src/graph/errors';
import { createLogger } from '../../src/log/logger';
import { stubGraphClient } from '../support/graph-client';
import { listen, LogCapture } from '../support/stack';

const PAGE = '104735298765432';

/** A stub provider that refuses any details read asking for `field` with `error`, and answers the rest. */
async function refusing(field: string, error: Record<string, unknown>) {
  const asked: string[] = [];
  const provider = await listen((req: IncomingMessage, res: ServerResponse) => {
    const fields = new URL(req.url ?? '/', 'http://x').searchParams.get('fields') ?? '';
    asked.push(fields);
    const refused = fields.split(',').some((f) => f === field);
    res.writeHead(refused ? 400 : 200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        refused
          ? { error: { type: 'OAuthException', fbtrace_id: 'Atrace1', ...error } }
          : { id: PAGE, name: 'Bakery', about: 'Bread' },
      ),
    );
  });
  const logs = new LogCapture();
  const client = stubGraphClient(provider.url, { logger: createLogger({ level: 'info', destination: logs }) });
  return {
    asked,
    logs,
    client,
    close: async () => {
      client.close();
      await provider.close();
    },
  };
}

/** The provider's wordings of a refused field (docs/provider-interface.md#removed-fields). */
describe('a details read whose field the provider refuses', () => {
  it.each([
    [
      'code 12, deprecated for versions',
      'bio',
      { code: 12, message: '(#12) bio field is deprecated for versions v2.8 and higher' },
    ],
    [
      'code 100, nonexisting field',
      'hours',
      { code: 100, message: '(#100) Tried accessing nonexisting field (hours) on node type (Page)' },
    ],
    [
      'Pages subcode 2069030',
      'emails',
      {
        code: 100,
        error_subcode: 2069030,
        message: '(#100) Tried accessing nonexisting field (emails) on node type (Page)',
      },
    ],
  ])(
    'when the refusal is %s, then one retry without the field gives the rest, and one warning names it',
    async (_, field, error) => {
      const stub = await refusing(field, error);
      try {
        await expect(stub.client.pageDetails('page-token', PAGE)).resolves.toMatchObject({
          name: 'Bakery',
          about: 'Bread',
        });
        await stub.client.pageDetails('page-token', PAGE);
        expect(stub.asked).toHaveLength(3);
        expect(stub.asked[1]?.split(',')).not.toContain(field);
        expect(stub.asked[2]).toBe(stub.asked[1]);
        const warnings = stub.logs.lines.filter((l) => l.includes('the provider removed a Page field'));
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain(`"field":"${field}"`);
        expect(warnings[0]).toContain('"apiVersion":"v26.0"');
        expect(warnings[0]).toContain(String(error.message));
      } finally {
        await stub.close();
      }
    },
  );

  it('when a Pages removed-field subcode comes with a message that names no field, then the error stands and nothing is retried', async () => {
    const stub = await refusing('hours', {
      code: 100,
      error_subcode: 2069031,
      message: '(#100) This field is unavailable',
    });
    try {
      const failed = await stub.client.pageDetails('page-token', PAGE).catch((err: unknown) => err);
      expect(failed).toBeInstanceOf(GraphApiError);
      expect((failed as GraphApiError).refusedField).toBeUndefined();
      expect(stub.asked).toHaveLength(1);
      expect(stub.logs.lines.filter((l) => l.includes('removed a Page field'))).toEqual([]);
    } finally {
      await stub.close();
    }
  });

  it('when the refused field was not asked for, then the error stands (no loop on a refusal the read cannot fix)', async () => {
    const stub = await refusing('hours', {
      code: 100,
      message: '(#100) Tried accessing nonexisting field (hourz) on node type (Page)',
    });
    try {
      await expect(stub.client.pageDetails('page-token', PAGE)).rejects.toBeInstanceOf(GraphApiError);
      expect(stub.asked).toHaveLength(1);
    } finally {
      await stub.close();
    }
  });
});
