/**
 * seed.schema.json, the JSON Schema of a seed file (README#seeds), generated from the zod schema the emulator
 * checks seed files with (src/seeds/schema.ts). Cross-references (a role's Page exists) are checked by the
 * emulator only. `npx tsx scripts/seed-schema.ts` rewrites it; test/seed-files.test.ts fails when it is stale.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { seedSchema } from '../src/seeds/schema';

export const SEED_SCHEMA_FILE = path.resolve(__dirname, '..', 'seed.schema.json');

export function seedJsonSchema(): string {
  const schema = z.toJSONSchema(seedSchema, { io: 'input', unrepresentable: 'any' });
  return `${JSON.stringify({ ...schema, title: 'graph-emulator seed' }, null, 2)}\n`;
}

if (require.main === module) {
  writeFileSync(SEED_SCHEMA_FILE, seedJsonSchema());
  console.log(`wrote ${path.relative(process.cwd(), SEED_SCHEMA_FILE)}`);
}
