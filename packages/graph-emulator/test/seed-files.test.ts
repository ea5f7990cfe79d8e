/**
 * Seeds from files and the state controls (README#seeds): EMULATOR_SEED names a JSON file checked field by
 * field, the seed control loads a whole seed, and a snapshot of the data restores it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { SEED_SCHEMA_FILE, seedJsonSchema } from '../scripts/seed-schema';
import { createEmulator, DEMO_SEED, SEED_IDS, TEST_SEED, type Seed } from '../src';
import { loadProviderEnv } from '../src/env';
import { CLIENT } from './helpers';

const PACKAGE = path.resolve(__dirname, '..');

const SMALL: Seed = {
  users: [
    {
      id: '200000000000001',
      name: 'Emmy Noether',
      first_name: 'Emmy',
      last_name: 'Noether',
      email: 'emmy@example.test',
      roles: [{ pageId: '300000000000001', tasks: ['ANALYZE', 'CREATE_CONTENT'] }],
    },
  ],
  pages: [
    {
      id: '300000000000001',
      name: 'Invariant Books',
      category: 'Bookstore',
      feed: [{ id: '300000000000001_1', created_time: '2026-10-01T12:00:00+0000', message: 'Open on Sundays' }],
    },
  ],
};

describe('seeds from files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'emulator-seed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string): string => {
    const p = path.join(dir, name);
    writeFileSync(p, content);
    return p;
  };

  it('when EMULATOR_SEED names a seed file, then the emulator serves its people and Pages', async () => {
    const env = loadProviderEnv({ EMULATOR_SEED: file('small.json', JSON.stringify(SMALL)) });
    expect(env.seedFile).toMatch(/small\.json$/);
    const { app, controls } = createEmulator({ clients: [CLIENT], seed: env.seed });
    const { access_token } = controls.issueToken({ userId: '200000000000001', scopes: ['pages_show_list'] });
    const me = await request(app).get('/v25.0/me').set('authorization', `Bearer ${access_token}`);
    expect(me.body).toEqual({ id: '200000000000001', name: 'Emmy Noether' });
    const pages = await request(app)
      .get('/v25.0/me/accounts?fields=name')
      .set('authorization', `Bearer ${access_token}`);
    expect(pages.body.data).toEqual([{ id: '300000000000001', name: 'Invariant Books' }]);
  });

  it('when the file has bad fields, then one line names the variable, the file and every bad field', () => {
    const bad = {
      users: [{ ...SMALL.users[0], id: 'emmy', roles: [{ pageId: '399', tasks: ['READ'] }] }],
      pages: [{ ...SMALL.pages[0], category: undefined, colour: 'red' }],
    };
    const p = file('bad.json', JSON.stringify(bad));
    let message = '';
    try {
      loadProviderEnv({ EMULATOR_SEED: p });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.startsWith(`EMULATOR_SEED ${p}: `)).toBe(true);
    expect(message).not.toContain('\n');
    for (const field of [
      'users.0.id: must be a numeric id',
      'users.0.roles.0.tasks.0: must be one of',
      'pages.0.category',
      'pages.0: Unrecognized key: "colour"',
    ])
      expect(message).toContain(field);
  });

  it('when the file is missing, not JSON, or not a path, then one line says which', () => {
    expect(() => loadProviderEnv({ EMULATOR_SEED: path.join(dir, 'none.json') })).toThrow(
      /^EMULATOR_SEED .*none\.json: cannot be read \(ENOENT\)$/,
    );
    expect(() => loadProviderEnv({ EMULATOR_SEED: file('broken.json', '{"users": [') })).toThrow(
      /^EMULATOR_SEED .*broken\.json: is not JSON/,
    );
    expect(() => loadProviderEnv({ EMULATOR_SEED: 'prod' })).toThrow(
      /^EMULATOR_SEED must be one of demo, test or a seed file's path/,
    );
  });

  it('when the seed check changes, then seed.schema.json, its JSON Schema, is regenerated with it (npx tsx scripts/seed-schema.ts)', () => {
    expect(readFileSync(SEED_SCHEMA_FILE, 'utf8')).toBe(seedJsonSchema());
  });

  it.each([
    ['demo', DEMO_SEED],
    ['test', TEST_SEED],
  ])(
    'when the %s seed is loaded, then it is a JSON file under the package, checked as a seed file of your own is, and shipped',
    (name, seed) => {
      const shipped = path.join(PACKAGE, 'seeds', `${name}.json`);
      expect(loadProviderEnv({ EMULATOR_SEED: shipped }).seed).toEqual(seed);
      expect(
        (JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as { files: string[] }).files,
      ).toContain('seeds');
    },
  );

  it('when a seed says timesRelativeTo as a time, then its times move to the emulator’s start, as with epoch ms', () => {
    const written = '2026-10-01T15:00:00+0000';
    const env = loadProviderEnv({
      EMULATOR_SEED: file('relative.json', JSON.stringify({ ...SMALL, timesRelativeTo: written })),
    });
    const start = Date.UTC(2027, 0, 10, 15, 0, 0);
    const { controls } = createEmulator({ clients: [CLIENT], seed: env.seed, now: () => start });
    expect(controls.snapshot().pages[0]!.feed[0]!.created_time).toBe('2027-01-10T12:00:00+0000');
    expect(JSON.parse(readFileSync(path.join(PACKAGE, 'seeds', 'demo.json'), 'utf8')).timesRelativeTo).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/,
    );
  });
});

describe('the seed and snapshot controls over HTTP', () => {
  const { app } = createEmulator({ clients: [CLIENT], httpControls: true, seed: 'test' });
  const json = (method: 'put' | 'post', url: string, body: unknown) =>
    request(app)[method](`/__emulator${url}`).set('content-type', 'application/json').send(JSON.stringify(body));

  it('when a whole seed is PUT, then it is loaded as custom; a bad one is a 400 naming the field', async () => {
    expect((await json('put', '/seed', { seed: SMALL })).status).toBe(204);
    const summary = await request(app).get('/__emulator/seed');
    expect(summary.body.name).toBe('custom');
    expect(summary.body.pages).toEqual([{ id: '300000000000001', name: 'Invariant Books', posts: 1 }]);
    const bad = await json('put', '/seed', { seed: { users: [], pages: [{ id: '1', name: 'x', feed: [] }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('loadSeed: pages.0.category: Invalid input: expected string, received undefined');
  });

  it('when a snapshot is taken after a change and PUT back later, then the change is back, and reset keeps it', async () => {
    await json('put', '/seed', { name: 'test' });
    const bakery = SEED_IDS.pages.bakery;
    expect((await json('post', `/pages/${bakery}`, { about: 'Snapshotted bread' })).status).toBe(204);
    const snapshot = (await request(app).get('/__emulator/snapshot')).body as Seed;
    expect(snapshot.pages.find((p) => p.id === bakery)?.about).toBe('Snapshotted bread');

    await json('put', '/seed', { name: 'test' });
    const about = async () =>
      (await request(app).get('/__emulator/snapshot')).body.pages.find((p: { id: string }) => p.id === bakery).about;
    expect(await about()).not.toBe('Snapshotted bread');
    expect((await json('put', '/seed', { seed: snapshot })).status).toBe(204);
    expect(await about()).toBe('Snapshotted bread');
    expect((await json('post', '/reset', {})).status).toBe(204);
    expect(await about()).toBe('Snapshotted bread');
  });
});
