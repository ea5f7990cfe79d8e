import { loadConfig } from '../../src/config';
import { StreamLimitError, StreamRegistry } from '../../src/live/streams';

/**
 * One person, or one address, cannot hold every stream an instance has room for: each is bounded apart from
 * the session, so logging in again and again buys no more (docs/architecture.md#live-updates).
 */
describe('StreamRegistry bounds', () => {
  const stream = () => ({ end: jest.fn() });
  const registry = () => new StreamRegistry(4, 100, { perPerson: 6, perAddress: 10 });

  it('when one person opens streams from many sessions, then past their bound the next is refused, whatever the session', () => {
    const streams = registry();
    for (let s = 0; s < 6; s++) streams.admit({ session: `s${s}`, person: 'ada', address: `10.0.0.${s}` }, stream());
    expect(() => streams.admit({ session: 'fresh', person: 'ada', address: '10.0.0.99' }, stream())).toThrow(
      StreamLimitError,
    );
    // Someone else is not held back by it.
    expect(() => streams.admit({ session: 'b1', person: 'bob', address: '10.0.1.1' }, stream())).not.toThrow();
  });

  it('when many people open streams from one address, then past the address bound the next is refused; a release frees a slot', () => {
    const streams = registry();
    const releases = Array.from({ length: 10 }, (_, i) =>
      streams.admit({ session: `s${i}`, person: `p${i}`, address: '203.0.113.9' }, stream()),
    );
    expect(() => streams.admit({ session: 'x', person: 'px', address: '203.0.113.9' }, stream())).toThrow(
      StreamLimitError,
    );
    releases[0]!();
    expect(() => streams.admit({ session: 'x', person: 'px', address: '203.0.113.9' }, stream())).not.toThrow();
    expect(streams.size).toBe(10);
  });

  it('when a person’s sessions end, then every stream of theirs ends and no one else’s', () => {
    const streams = registry();
    const mine = [stream(), stream(), stream()];
    const theirs = stream();
    mine.forEach((s, i) => streams.admit({ session: `mine${i}`, person: 'ada', address: '10.0.0.1' }, s));
    streams.admit({ session: 'theirs', person: 'bob', address: '10.0.0.1' }, theirs);
    streams.closePerson('ada');
    mine.forEach((s) => expect(s.end).toHaveBeenCalledTimes(1));
    expect(theirs.end).not.toHaveBeenCalled();
  });

  it('when a stream has no known person, then only the session and address bounds count for it', () => {
    const streams = registry();
    for (let i = 0; i < 4; i++) streams.admit({ session: 'anon', address: '10.0.0.1' }, stream());
    expect(() => streams.admit({ session: 'anon', address: '10.0.0.1' }, stream())).toThrow(StreamLimitError);
  });
});

describe('LIVE_STREAMS_MAX and MAX_CONNECTIONS', () => {
  it('when LIVE_STREAMS_MAX is unset, then half the connections; the rest stays for pages and probes', () => {
    expect(loadConfig({}).liveStreamsMax).toBe(500);
    expect(loadConfig({ MAX_CONNECTIONS: '101' }).liveStreamsMax).toBe(50);
  });

  it('when LIVE_STREAMS_MAX is above half of MAX_CONNECTIONS, then a one-line error names it and the bound', () => {
    expect(() => loadConfig({ LIVE_STREAMS_MAX: '1000' })).toThrow(
      /^LIVE_STREAMS_MAX: must be at most half of MAX_CONNECTIONS \(500\)/,
    );
    expect(loadConfig({ LIVE_STREAMS_MAX: '2000', MAX_CONNECTIONS: '4000' }).liveStreamsMax).toBe(2000);
  });

  it('when the per-person and per-address bounds are unset, then 8 and 32', () => {
    expect(loadConfig({})).toMatchObject({ liveStreamsPerPerson: 8, liveStreamsPerAddress: 32 });
  });
});
