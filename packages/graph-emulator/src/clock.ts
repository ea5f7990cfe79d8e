/**
 * The emulator's clock: the `now` option (default `Date.now`) plus however far a test has moved it
 * (`moveClock`, `POST /__emulator/clock`). Token lifetimes, codes, scheduled posts, webhooks and usage all
 * read it, so moving it is time passing for all of them (docs/reference.md#clock).
 */
export class Clock {
  private offsetMs = 0;

  constructor(private readonly base: () => number) {}

  readonly now = (): number => this.base() + this.offsetMs;

  /** Moves to `atMs`, never back: what has happened (a post published, a token expired) stays so. */
  moveTo(atMs: number): void {
    const now = this.now();
    if (atMs < now) throw new Error('at: the clock only moves forward');
    this.offsetMs += atMs - now;
  }
}
