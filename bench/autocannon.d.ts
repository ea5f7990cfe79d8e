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
    requests?: (RequestParams & { setupRequest?: (req: RequestParams) => RequestParams })[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    '2xx': number;
    non2xx: number;
    errors: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export = autocannon;
}
