import path from "node:path";

/** The member file a folder bundle runs now (set by test/support/bundle.ts, read by currentTestFile). */
export const CURRENT_MEMBER = Symbol.for("edmarket.bundleMember");

/** The running test file from the repository root (none outside one): in a folder bundle (test/support/bundle.ts), the member running now. */
export function currentTestFile(): string | undefined {
  const member = (globalThis as Record<symbol, unknown>)[CURRENT_MEMBER] as string | undefined;
  const testPath = expect.getState().testPath;
  if (!member && !testPath) return undefined;
  return member ?? path.relative(path.resolve(__dirname, "../.."), testPath!).split(path.sep).join("/");
}
