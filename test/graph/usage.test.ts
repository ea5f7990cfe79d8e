import { UsageGovernor } from '../../src/graph/usage';

describe('UsageGovernor (provider rate-limit headers)', () => {
  let now = 1_000_000;
  const governor = () => new UsageGovernor({ slowFrom: 75, maxDelayMs: 1000, staleAfterMs: 60_000 }, () => now);

  it('when usage is low, then calls are neither slowed nor held back', () => {
    const g = governor();
    g.record({ 'x-app-usage': '{"call_count":10,"total_cputime":5,"total_time":7}' }, undefined);
    expect(g.delayFor(undefined)).toBe(0);
    expect(g.blockedFor(undefined)).toBeUndefined();
  });

  // The app and page budgets are apart, as the provider's "Rate Limiting" page describes (docs/provider-interface.md#usage-headers).
  it.each([
    [
      'when app usage nears the limit, then calls on the app budget are slowed in proportion, page-token calls are not',
      '{"call_count":50,"total_cputime":20,"total_time":90}',
      600,
    ],
    [
      'when the app budget is exhausted, then user-token calls are slowed but page-token calls the page budget allows are not',
      '{"call_count":100,"total_cputime":20,"total_time":90}',
      1000,
    ],
  ])('%s', (_title, appUsage, delayMs) => {
    const g = governor();
    g.record({ 'x-app-usage': appUsage }, undefined);
    expect(g.delayFor(undefined)).toBe(delayMs);
    expect(g.delayFor('123')).toBe(0);
  });

  it('when a page is held back, then user-token calls (app budget) still go', () => {
    const g = governor();
    g.record(
      {
        'x-business-use-case-usage': '{"123":[{"type":"pages","call_count":100,"estimated_time_to_regain_access":5}]}',
      },
      '123',
    );
    expect(g.blockedFor('123')).toBe(300);
    expect(g.blockedFor(undefined)).toBeUndefined();
    expect(g.delayFor(undefined)).toBe(0);
  });

  it('when a page usage header says the page is closed for 2 minutes, then calls for that page are held back, others are not', () => {
    const g = governor();
    g.record(
      {
        'x-business-use-case-usage':
          '{"123":[{"type":"pages","call_count":100,"total_cputime":10,"total_time":10,"estimated_time_to_regain_access":2}]}',
      },
      '123',
    );
    expect(g.blockedFor('123')).toBe(120);
    expect(g.blockedFor('456')).toBeUndefined();
    expect(g.delayFor('123')).toBe(1000);
    now += 121_000;
    expect(g.blockedFor('123')).toBeUndefined();
  });

  it('when X-App-Usage carries a regain estimate, then nothing is held back: the provider sends one only with the Business Use Case header', () => {
    const g = governor();
    g.record({ 'x-app-usage': '{"call_count":100,"estimated_time_to_regain_access":30}' }, undefined);
    expect(g.blockedFor(undefined)).toBeUndefined();
    expect(g.delayFor(undefined)).toBe(1000);
  });

  it('when an answer carries no usage header at all, then nothing is slowed or held back', () => {
    const g = governor();
    g.record({}, '123');
    expect(g.delayFor('123')).toBe(0);
    expect(g.blockedFor('123')).toBeUndefined();
    expect(g.report()).toEqual({ app: undefined, page: undefined });
  });

  it('when a reading is older than the window, then it no longer slows anything', () => {
    const g = governor();
    g.record({ 'x-page-usage': '{"call_count":95}' }, '9');
    expect(g.delayFor('9')).toBeGreaterThan(0);
    now += 61_000;
    expect(g.delayFor('9')).toBe(0);
  });

  it.each([
    ['not json'],
    ['[1,2]'],
    ['{"123":"x"}'],
    ['{"call_count":"lots"}'],
    ['{"abc":[{"call_count":100,"estimated_time_to_regain_access":5}]}'],
  ])('when a header is malformed (%s), then it is ignored', (value) => {
    const g = governor();
    g.record({ 'x-app-usage': value, 'x-business-use-case-usage': value, 'x-page-usage': value }, '1');
    expect(g.delayFor('1')).toBe(0);
    expect(g.blockedFor('1')).toBeUndefined();
  });
});
