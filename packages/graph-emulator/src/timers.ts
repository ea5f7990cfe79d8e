/**
 * Timers that do not keep the process alive and can all be cleared at once,
 * so an emulator's reset or close leaves none behind.
 */
export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();

  /** Runs `run` after `ms`, unless cleared first. */
  after(ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.pending.add(timer);
    return timer;
  }

  clear(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
