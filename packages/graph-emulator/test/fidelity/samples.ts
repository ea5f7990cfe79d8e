/**
 * The provider documentation's own sample answers (samples/*.json), each with the page it is quoted from.
 * docs/fidelity.md says how one is added.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const Sample = z.object({
  title: z.string(),
  /** The provider's page the sample is quoted from. */
  source: z.url().startsWith('https://developers.facebook.com/docs/'),
  /** The words around the sample on that page, as written there. */
  quote: z.string().min(1),
  /** The call the page shows. */
  request: z.string(),
  /** The sample answer, as JSON (placeholders kept as the page writes them). */
  sample: z.record(z.string(), z.unknown()),
  /** Paths the sample shows that an answer may leave out, with the reason in `note`. */
  optional: z.array(z.string()).default([]),
  /** Paths the sample shows although its call did not ask for them, with the reason in `note`. */
  unasked: z.array(z.string()).default([]),
  note: z.string().optional(),
});
export type Sample = z.infer<typeof Sample>;

const DIR = join(__dirname, 'samples');

/** Every sample by its file name without `.json`; a malformed one fails the suite with its name. */
export function loadSamples(): ReadonlyMap<string, Sample> {
  const samples = new Map<string, Sample>();
  for (const file of readdirSync(DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const parsed = Sample.safeParse(JSON.parse(readFileSync(join(DIR, file), 'utf8')));
    if (!parsed.success) throw new Error(`test/fidelity/samples/${file}: ${z.prettifyError(parsed.error)}`);
    samples.set(file.replace(/\.json$/, ''), parsed.data);
  }
  return samples;
}
