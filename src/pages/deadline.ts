import { AppError } from '../errors';

/**
 * One part of a view that did not come within its own deadline (docs/architecture.md#post-page): the view shows
 * without it and says so. Never a page of its own: the post page catches it. The read itself goes on
 * (src/deadline.ts): its answer may still fill the cache, so trying again finds it there.
 */
export class LateError extends AppError {
  constructor() {
    super('provider_timeout', 'A part of the page did not come in time.');
  }
}

/** What a late extra settles as: `withinDeadline(read, ms, late)`. */
export const late = (): LateError => new LateError();
