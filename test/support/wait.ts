/**
 * Polls `fn` every 100 ms until `ok` holds or `ms` pass, then returns the last value: the caller's
 * expectation on it fails with the value in view (jobs on a real worker finish when they finish).
 */
export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}
