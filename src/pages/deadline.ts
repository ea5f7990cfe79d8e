import { AppError } from '../errors';

/**
 * One part of a view that did not come within its own deadline (docs/architecture.md#post-page): the view shows
 * without it and says so. Never a page of its own: the post page catches it.
 */
export class LateError extends AppError {
  constructor() {
    super('provider_timeout', 'A part of the page did not come in time.');
  }
}

/**
 * `read`'s outcome, or a {@link LateError} once `ms` passed first. The read itself goes on: its answer may still
 * fill the cache, so trying again finds it there.
 */
export function withinDeadline<T>(read: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new LateError()), ms);
    read.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        // Passed on as it came: the caller tells the provider's refusals from the rest.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(err);
      },
    );
  });
}
