/** The part of autocannon's API the benchmarks use (the package ships no types). */
declare module "autocannon" {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    total: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    method?: "GET" | "POST";
    body?: string;
    pipelining?: number;
    timeout?: number;
    /** Milliseconds between samples (default 1000); a run ends at the first sample after `duration`. */
    sampleInt?: number;
    /** Requests in turn; `setupRequest` may rewrite each one before it is sent (bench/unlock.ts). */
    requests?: {
      method?: "GET" | "POST";
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (req: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) => object;
    }[];
  }
  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    latency: Histogram & { totalCount: number };
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }
  function autocannon(options: Options): Promise<Result>;
  export = autocannon;
}
