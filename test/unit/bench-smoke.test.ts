/**
 * Issue 20 point 15: every `bench:*` script of package.json has a smoke run in CI (`npm run bench:smoke`,
 * bench/smoke.ts), so a bench that stops working fails CI instead of the next person who measures.
 */
import { benchScripts, smokeGaps, SMOKE_RUNS } from "../../bench/smoke";

describe("bench smoke runs (issue 20 point 15)", () => {
  it("has a smoke entry for every bench:* script", () => {
    expect(benchScripts().length).toBeGreaterThanOrEqual(5);
    expect(smokeGaps().missing).toEqual([]);
  });

  it("covers the README's benchmark commands", () => {
    expect(Object.keys(SMOKE_RUNS)).toEqual(expect.arrayContaining(["bench:districts", "bench:graphql", "bench:startup"]));
  });
});
