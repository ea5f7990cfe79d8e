// The part of autocannon's API the bench uses (it ships no types, and this is smaller than @types/autocannon).
declare module 'autocannon' {
  interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Stop after this many requests (instead of a duration). */
    amount?: number;
    requests?: (RequestParams & { setupRequest?: (req: RequestParams) => RequestParams })[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram & { sent: number };
    latency: Histogram;
    '2xx': number;
    non2xx: number;
    errors: number;
    statusCodeStats: Record<string, { count: number } | undefined>;
  }
  /** A run under way: a promise of its result that also reports each answer (`responseTime` in ms). */
  interface Instance extends Promise<Result> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): void;
  }
  function autocannon(options: Options): Instance;
  export = autocannon;
}
