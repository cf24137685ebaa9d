import "reflect-metadata";
import fc from "fast-check";
import { metricQueryText } from "../test/support/fuzz/metric-query";
import { parseMetricQuery } from "../src/features/catalogue/metrics/metric-query";
for (const hostile of [false, true]) {
  const samples = fc.sample(metricQueryText("district", [2019, 2020, 2021], hostile), { seed: 3, numRuns: 1000 });
  let ok = 0; const errors = new Map<string, number>();
  for (const s of samples) { try { parseMetricQuery("district", s); ok++; } catch (e) { const m = (e as Error).message.replace(/\[\d+\]/g, "[i]").slice(0, 70); errors.set(m, (errors.get(m) ?? 0) + 1); } }
  console.log(hostile, ok, [...errors].sort((a, b) => b[1] - a[1]).slice(0, 8));
  if (!hostile) console.log(samples.slice(0, 3));
}
