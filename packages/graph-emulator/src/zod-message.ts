/** How a value zod refused is reported: the controls' 400 answers, seed files, thrown Errors. */
import type { z } from 'zod';

/** One line naming every offending path (`pages.0.name: …; users.1.id: …`). */
export function describeZodError(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : 'body'}: ${i.message}`).join('; ');
}
