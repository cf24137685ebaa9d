/**
 * Test-only pause points for the fault tests (test/faults; docs/operations.md, "Faults"). `faultPoint(name)` does
 * nothing unless the composition root (bin/cli.ts) armed `name` from EDMARKET_FAULT_PAUSE_AT (names separated by
 * commas), which production never sets. An armed point writes one line `{"fault_point":"<name>","pid":<pid>}` on
 * stderr and never returns: the test kills the process (SIGKILL) exactly there, in the middle of a transaction or
 * between a job's writes, without racing a timer.
 */
export const FAULT_POINTS = {
  /** An unlock's transaction after its hold and extraction job were written, before the commit (API). */
  "unlock.hold": true,
  /** The extraction's store transaction after the rows were written, before the commit (worker). */
  "extraction.store": true,
  /** The unlock job's transaction after the hold was committed in it, before the commit (worker). */
  "unlock.settle": true,
  /** A feed poll after its first article was stored, before the article is analysed (worker). */
  "news.ingest": true,
  /** A brief build's transaction after the brief was marked ready, before the commit (worker). */
  "brief.ready": true,
  /** A publisher file's ingest transaction after its rows were written, before the commit (CLI, first start). */
  "ingest.file": true,
} as const;

export type FaultPoint = keyof typeof FAULT_POINTS;

const armed = new Set<string>();

/** Arms the named points (the composition root passes EDMARKET_FAULT_PAUSE_AT); an unknown name is refused. */
export function armFaultPoints(names: string): void {
  for (const name of names
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean)) {
    if (!(name in FAULT_POINTS))
      throw new Error(`EDMARKET_FAULT_PAUSE_AT: unknown point ${JSON.stringify(name)}; one of ${Object.keys(FAULT_POINTS).join(", ")}`);
    armed.add(name);
  }
}

/** Pauses here for good when `name` is armed (the test kills the process); otherwise returns at once. */
export async function faultPoint(name: FaultPoint): Promise<void> {
  if (!armed.has(name)) return;
  process.stderr.write(`${JSON.stringify({ fault_point: name, pid: process.pid })}\n`);
  await new Promise<never>(() => undefined);
}
