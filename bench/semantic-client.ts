/**
 * The client of bench/semantic.ts's endpoint latency, in a process of its own (as bench/fairness-client.ts): the
 * client's own work (fetch, gunzipping the answer) is not done on the server's threads, so what it measures is the
 * server. One POST /semantic-search at a time, as an integrator's client sends it (fetch: keep-alive, gzip), each
 * query of the file once after the first `warm-up` of them (unmeasured: a new process's fetch is slow at first);
 * prints one JSON line: the milliseconds of each measured request, in order.
 *
 *   <url> <api key> <queries JSON file> <state or "-"> <warm-up>
 */
import fs from "node:fs";

async function main(): Promise<void> {
  const [url, apiKey, file, state, warm] = process.argv.slice(2) as [string, string, string, string, string];
  const queries = JSON.parse(fs.readFileSync(file, "utf8")) as string[];
  const ms: number[] = [];
  for (const [i, query] of [...queries.slice(0, Number(warm)), ...queries].entries()) {
    const started = performance.now();
    const res = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ query, entity_type: "district", limit: 10, ...(state !== "-" ? { state } : {}) }),
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`semantic search answered ${res.status}: ${body} (${query})`);
    if (i >= Number(warm)) ms.push(performance.now() - started);
  }
  process.stdout.write(`${JSON.stringify(ms)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
