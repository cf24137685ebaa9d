/**
 * The clients of bench/fairness.ts, each run in a process of its own so that neither the flood's nor the
 * victim's JavaScript stalls the other's clock: what the victim measures is the server, not the bench's own
 * event loop. Each prints one JSON line on stdout (the flood prints `started` first) with its CPU time.
 *
 *   flood <url> <api key> <connections> <seconds>     autocannon; 429 and Retry-After ignored
 *   victim <url> <seconds> <rps> <steady after s> <api key> [<api key> ...]
 *       one request at a time every 1/rps s, the keys taking turns; each key's latencies apart
 */
import autocannon from "autocannon";
import { percentile, round, SMOKE } from "./harness";

/** CPU time this process used, in ms, and as a share of one core over the wall time. */
function cpu(startedAt: number, start: NodeJS.CpuUsage): { cpu_ms: number; cpu_share_of_one_core: number } {
  const used = process.cpuUsage(start);
  const ms = (used.user + used.system) / 1000;
  return { cpu_ms: Math.round(ms), cpu_share_of_one_core: round(ms / (performance.now() - startedAt)) };
}

async function flood(url: string, apiKey: string, connections: number, seconds: number): Promise<unknown> {
  const startedAt = performance.now();
  const startCpu = process.cpuUsage();
  // A smoke run's flood (BENCH_SMOKE=1, inherited from the bench) ends when asked, not at autocannon's next whole second.
  const run = autocannon({
    url,
    headers: { authorization: `Bearer ${apiKey}` },
    connections,
    duration: seconds,
    timeout: 60,
    ...(SMOKE ? { sampleInt: 100 } : {}),
  });
  process.stdout.write("started\n");
  const r = (await run) as Awaited<typeof run> & { statusCodeStats?: Record<string, { count: number }> };
  const statuses = new Map(Object.entries(r.statusCodeStats ?? {}).map(([code, { count }]) => [Number(code), count]));
  return {
    requests: r.latency.totalCount,
    ok: statuses.get(200) ?? 0,
    refused_429: statuses.get(429) ?? 0,
    other: [...statuses].filter(([s]) => s !== 200 && s !== 429).reduce((sum, [, n]) => sum + n, 0),
    latency_p99_ms: r.latency.p99,
    ...cpu(startedAt, startCpu),
  };
}

async function victim(url: string, seconds: number, rps: number, steadyAfter: number, apiKeys: string[]): Promise<unknown> {
  const startedAt = performance.now();
  const startCpu = process.cpuUsage();
  const runs = apiKeys.map(() => ({ latencies: [] as number[], steady: [] as number[], non2xx: 0 }));
  const interval = 1000 / rps;
  const steadyFrom = performance.now() + steadyAfter * 1000;
  const end = performance.now() + seconds * 1000;
  let turn = 0;
  for (let next = performance.now(); next < end; next += interval, turn += 1) {
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const run = runs[turn % apiKeys.length]!;
    const start = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${apiKeys[turn % apiKeys.length]}` } });
    await res.arrayBuffer();
    const latency = performance.now() - start;
    run.latencies.push(latency);
    if (start >= steadyFrom) run.steady.push(latency);
    if (res.status !== 200) run.non2xx += 1;
  }
  const usage = cpu(startedAt, startCpu);
  return runs.map(({ latencies, steady, non2xx }) => {
    latencies.sort((a, b) => a - b);
    steady.sort((a, b) => a - b);
    return {
      requests: latencies.length,
      non_2xx: non2xx,
      latency_p50_ms: round(percentile(latencies, 50)),
      latency_p99_ms: round(percentile(latencies, 99)),
      latency_max_ms: round(latencies.at(-1) ?? 0),
      steady_latency_p99_ms: round(percentile(steady, 99)),
      ...usage,
    };
  });
}

async function main(): Promise<void> {
  const [role, url, ...rest] = process.argv.slice(2);
  const result =
    role === "flood"
      ? await flood(url!, rest[0]!, Number(rest[1]), Number(rest[2]))
      : await victim(url!, Number(rest[0]), Number(rest[1]), Number(rest[2]), rest.slice(3));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
