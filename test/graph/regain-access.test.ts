import { MAX_REGAIN_MINUTES, UsageGovernor } from '../../src/graph/usage';

const usageHeader = (minutes: number) => ({
  'x-business-use-case-usage': JSON.stringify({
    '123': [
      { type: 'pages', call_count: 100, total_cputime: 10, total_time: 10, estimated_time_to_regain_access: minutes },
    ],
  }),
});

describe("the provider's estimated_time_to_regain_access", () => {
  let now = 5_000_000;
  const governor = () => new UsageGovernor({ slowFrom: 75, maxDelayMs: 1000, staleAfterMs: 60_000 }, () => now);

  it('when the provider says a page is closed for days, then calls for it are held back for at most an hour', () => {
    const g = governor();
    g.record(usageHeader(60 * 24 * 365), '123');
    expect(MAX_REGAIN_MINUTES).toBe(60);
    expect(g.blockedFor('123')).toBe(3600);
    now += 3600_000 + 1000;
    expect(g.blockedFor('123')).toBeUndefined();
  });

  it('when the provider says a page is closed for less than an hour, then that is what is kept', () => {
    const g = governor();
    g.record(usageHeader(5), '123');
    expect(g.blockedFor('123')).toBe(300);
  });
});
