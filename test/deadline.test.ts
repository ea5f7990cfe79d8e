import { DeadlineError, withinDeadline } from '../src/deadline';

describe('withinDeadline', () => {
  it('when the work settles first, then its value or its own error comes back', async () => {
    await expect(withinDeadline(Promise.resolve(7), 1000)).resolves.toBe(7);
    const own = new RangeError('its own');
    await expect(withinDeadline(Promise.reject(own), 1000)).rejects.toBe(own);
  });

  it('when the deadline passes first, then the caller’s error for it, or a DeadlineError', async () => {
    const never = new Promise<never>(() => undefined);
    await expect(withinDeadline(never, 5)).rejects.toBeInstanceOf(DeadlineError);
    const late = new Error('late');
    await expect(withinDeadline(never, 5, () => late)).rejects.toBe(late);
  });
});
