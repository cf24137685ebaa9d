/**
 * Issue 21 point 1: every feature declares itself in its folder's `feature.ts`, and src/graphql/features.ts
 * lists each manifest once. Nothing a feature defines (a resolver class, a loader factory, a block, a job,
 * a dictionary) can be left out of the service by a missing registration: each is found on disk here and
 * must be in the installed features.
 */
import fs from "node:fs";
import path from "node:path";
import { getMetadataStorage } from "type-graphql";
import { FEATURES, INSTALLED } from "../../src/graphql/features";

const ROOT = path.join(__dirname, "../../src/features");
const files = (suffix: string): string[] =>
  (fs.readdirSync(ROOT, { recursive: true }) as string[]).filter((f) => f.endsWith(suffix)).map((f) => path.join(ROOT, f));
const exportsOf = (file: string): Record<string, unknown> => require(file) as Record<string, unknown>;

describe("feature manifests", () => {
  it("every feature.ts is listed in FEATURES, once, under a unique name", () => {
    const manifests = files("/feature.ts").flatMap((file) => Object.values(exportsOf(file)));
    expect(manifests.length).toBeGreaterThan(15);
    for (const manifest of manifests) expect(FEATURES).toContain(manifest);
    expect(new Set(FEATURES).size).toBe(FEATURES.length);
    expect(new Set(FEATURES.map((f) => f.name)).size).toBe(FEATURES.length);
    expect(FEATURES.length).toBe(manifests.length);
  });

  it("every resolver class of src/features is installed", () => {
    for (const file of files(".resolver.ts")) exportsOf(file);
    const declared = new Set(getMetadataStorage().resolverClasses.map((r) => r.target));
    const installed = new Set(INSTALLED.resolvers);
    const missing = [...declared].filter((target) => !installed.has(target)).map((target) => target.name);
    expect(missing).toEqual([]);
  });

  it("every loader factory, block, job, feature dictionary and MCP tool is installed", () => {
    const factories = files(".loaders.ts").flatMap((file) =>
      Object.entries(exportsOf(file)).filter(([name, value]) => /^create\w+Loaders$/.test(name) && typeof value === "function"),
    );
    expect(factories.length).toBeGreaterThan(5);
    for (const [name, factory] of factories)
      expect([name, [...INSTALLED.loaders.values()].includes(factory as never)]).toEqual([name, true]);

    const isBlock = (v: unknown) => typeof v === "object" && v !== null && "kinds" in v && "sql" in v;
    const blocks = files(".blocks.ts").flatMap((file) => Object.values(exportsOf(file)).filter(isBlock));
    expect(blocks.length).toBeGreaterThan(10);
    for (const block of blocks) expect(INSTALLED.blocks).toContain(block);

    const isJob = (v: unknown) => typeof v === "object" && v !== null && "name" in v && "run" in v;
    const jobs = files(".jobs.ts").flatMap((file) => Object.values(exportsOf(file)).filter(isJob));
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    for (const job of jobs) expect(INSTALLED.jobs).toContain(job);

    const dictionaries = files(".dictionary.ts").flatMap((file) =>
      Object.entries(exportsOf(file)).flatMap(([name, v]) => (/Dictionary$/.test(name) ? [v] : [])),
    );
    expect(dictionaries.length).toBeGreaterThan(5);
    for (const dictionary of dictionaries) expect(INSTALLED.dictionaries).toContain(dictionary);

    const tools = files(".mcp.ts").flatMap((file) => Object.values(exportsOf(file)).flatMap((v) => (Array.isArray(v) ? v : [])));
    expect(tools.length).toBeGreaterThanOrEqual(5);
    for (const tool of tools) expect(INSTALLED.mcp).toContain(tool);
    const records = files(".mcp.ts").flatMap((file) =>
      Object.values(exportsOf(file)).filter((v) => typeof v === "object" && v !== null && "plural" in v),
    );
    expect(records.length).toBeGreaterThanOrEqual(3);
    for (const record of records) expect(INSTALLED.mcpRecords).toContain(record);
  });
});
