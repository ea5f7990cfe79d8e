/** Work that did not settle within its deadline. */
export class DeadlineError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'DeadlineError';
  }
}

/**
 * `work`'s outcome, or a rejection with `late()` once `ms` passed first: the app's one deadline. The work itself
 * goes on (a promise cannot be cancelled); what must stop — a provider exchange — aborts it by a signal instead.
 */
export function withinDeadline<T>(
  work: Promise<T>,
  ms: number,
  late: () => Error = () => new DeadlineError(ms),
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(late()), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        // Passed on as it came: callers tell their own errors from the rest.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(err);
      },
    );
  });
}
