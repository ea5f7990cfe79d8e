import { BadRequestError } from '../errors';

/**
 * Reads one query parameter that must appear at most once, as a plain string
 * of bounded length. Repeated parameters (arrays) and over-long values are a
 * 400, never a crash or an upstream call (docs/architecture.md#security-rules).
 */
export function singleParam(query: unknown, name: string, maxLength: number): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new BadRequestError({ key: 'error.param.once', values: { name } });
  if (value.length > maxLength) throw new BadRequestError({ key: 'error.param.tooLong', values: { name } });
  return value;
}

const PAGE_ID = /^\d{1,32}$/;

/** `:pageId` is all digits (docs/architecture.md#security-rules); checked before anything goes upstream. */
export function pageIdParam(value: unknown): string {
  if (typeof value !== 'string' || !PAGE_ID.test(value)) {
    throw new BadRequestError({ key: 'error.param.pageId' });
  }
  return value;
}
