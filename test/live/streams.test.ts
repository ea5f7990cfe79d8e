import { LocalPageEvents } from '../../src/live/bus';
import { StreamLimitError, StreamRegistry } from '../../src/live/streams';

/** docs/architecture.md#live-updates */
describe('StreamRegistry', () => {
  const stream = () => ({ end: jest.fn() });

  it('when the instance holds its bound of streams, then one more from any session is refused with a 429', () => {
    const registry = new StreamRegistry(4, 3);
    registry.admit({ session: 'a' }, stream());
    registry.admit({ session: 'b' }, stream());
    const release = registry.admit({ session: 'c' }, stream());
    expect(() => registry.admit({ session: 'd' }, stream())).toThrow(StreamLimitError);
    release();
    release(); // twice is once
    expect(registry.size).toBe(2);
    expect(() => registry.admit({ session: 'd' }, stream())).not.toThrow();
  });

  it('when a session is closed, then only its streams end', () => {
    const registry = new StreamRegistry(4, 10);
    const mine = [stream(), stream()];
    const theirs = stream();
    mine.forEach((s) => registry.admit({ session: 'mine' }, s));
    registry.admit({ session: 'theirs' }, theirs);
    registry.closeSession('mine');
    mine.forEach((s) => expect(s.end).toHaveBeenCalledTimes(1));
    expect(theirs.end).not.toHaveBeenCalled();
  });
});

describe('LocalPageEvents', () => {
  it('when a listener throws, then the others still hear the event, and an unsubscribed one does not', () => {
    const errors: unknown[] = [];
    const bus = new LocalPageEvents((err) => errors.push(err));
    const heard: string[] = [];
    bus.subscribe('1', () => {
      throw new Error('broken tab');
    });
    const off = bus.subscribe('1', () => heard.push('second'));
    bus.subscribe('2', () => heard.push('other page'));
    bus.publish('1', { kind: 'feed-changed' });
    off();
    bus.publish('1', { kind: 'feed-changed' });
    expect(heard).toEqual(['second']);
    expect(errors).toHaveLength(2);
    expect(bus.watchedPages).toBe(2);
  });
});
