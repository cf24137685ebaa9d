/**
 * The import graph of src/ and rest-adapter/ (issue 21 point 4): no cycle between files, no cycle between
 * features (a feature is a folder src/features/<group>/<feature>/), production never depends on the demo
 * seed or on the REST adapter, and the job runtime (src/jobs/) never depends on a feature.
 *
 * Every import counts: static, `import type`, `export ... from`, `import()` and `typeof import()`. A type-only
 * import creates no cycle at run time, but it still ties the two files' designs together (the cycle between
 * extraction.extractor.ts and unlock.jobs.ts was a type import one way and an `import()` the other), so the
 * rule is the issue's: no cycles, whatever kind of import closes them.
 *
 * The feature list (src/graphql/features.ts, FEATURES) imports every feature's manifest (`feature.ts`) by design:
 * it is no feature, so its imports are no edge between features, and a feature importing it back closes a cycle
 * between files, which the first check names. A manifest is a file of its feature like any other.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(__dirname, "../..");
/** Generated code is read as a leaf: its internal imports are its generator's business. */
const GENERATED = ["src/db/generated/", "rest-adapter/generated/"];
/**
 * Files allowed to import src/seed/: the composition of the demo dataset (src/seed.ts, run by `serve` on a first
 * start and by `edmarket seed`) and the job runtime's composition root, which makes the demo extraction the
 * pipeline's fallback (src/compose-jobs.ts).
 */
const SEED_IMPORTERS = ["src/seed.ts", "src/compose-jobs.ts"];

type Graph = Map<string, Set<string>>;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.ts$/.test(entry.name) && !/\.d\.ts$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/**
 * Every module specifier a file names: imports (type or not), re-exports, import(), require(), typeof import(),
 * and module augmentations (`declare module "..."`).
 */
function specifiers(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      found.push(node.moduleSpecifier.text);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression;
      if (ts.isStringLiteral(expr)) found.push(expr.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require")) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      found.push(node.argument.literal.text);
    // `declare module "../x" { ... }` augments x's types: a type import of x.
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) found.push(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A relative specifier as a repository path (`.ts` or `/index.ts`); null for packages. */
function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = path.posix.join(path.posix.dirname(from), spec).replace(/\.js$/, "");
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`])
    if (fs.existsSync(path.join(ROOT, candidate)) && fs.statSync(path.join(ROOT, candidate)).isFile()) return candidate;
  throw new Error(`${from}: cannot resolve ${spec}`);
}

function importGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of [...sourceFiles("src"), ...sourceFiles("rest-adapter")]) {
    const edges = new Set<string>();
    if (!GENERATED.some((g) => file.startsWith(g)))
      for (const spec of specifiers(file)) {
        const target = resolve(file, spec);
        if (target && target !== file) edges.add(target);
      }
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components with more than one node (Tarjan), each named by its shortest cycle and its size. */
function cycles(graph: Graph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) connect(node);
  return components.map((component) => {
    const cycle = shortestCycle(graph, new Set(component));
    const more = component.length - (cycle.length - 1);
    return more > 0 ? [...cycle.slice(0, -1), `${cycle[cycle.length - 1]} (and ${more} more files in the same knot)`] : cycle;
  });
}

/** The shortest cycle through the component's first node (in sorted order), for the failure message. */
function shortestCycle(graph: Graph, members: Set<string>): string[] {
  const start = [...members].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0])!);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [...members];
}

/** The feature a file belongs to (src/features/<group>/<feature>), or null. */
function featureOf(file: string): string | null {
  return /^src\/features\/[^/]+\/[^/]+\//.exec(file)?.[0].slice(0, -1) ?? null;
}

/** Feature -> features it imports (direct imports between files of two features). */
function featureGraph(graph: Graph): Graph {
  const features: Graph = new Map();
  for (const [file, targets] of graph) {
    const from = featureOf(file);
    if (!from) continue;
    const edges = features.get(from) ?? new Set<string>();
    features.set(from, edges);
    for (const target of targets) {
      const to = featureOf(target);
      if (to && to !== from) edges.add(to);
    }
  }
  return features;
}

const edgesInto = (graph: Graph, accept: (from: string) => boolean, into: (to: string) => boolean): string[] =>
  [...graph].flatMap(([from, targets]) => (accept(from) ? [...targets].filter(into).map((to) => `${from} -> ${to}`) : []));

describe("architecture: the import graph of src/ and rest-adapter/", () => {
  const graph = importGraph();
  const show = (found: string[][]) => found.map((cycle) => cycle.join(" -> "));

  it("reads the graph (every relative import resolves; a sample edge is seen)", () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get("src/app.ts")).toContain("src/logger.ts");
  });

  it("has no cycle between files", () => {
    expect(show(cycles(graph))).toEqual([]);
  });

  it("has no cycle between features", () => {
    expect(show(cycles(featureGraph(graph)))).toEqual([]);
  });

  it("never imports the demo seed (src/seed/) from production code, except the files composing it", () => {
    const seed = (file: string) => file.startsWith("src/seed/");
    expect(edgesInto(graph, (from) => !seed(from) && !SEED_IMPORTERS.includes(from), seed)).toEqual([]);
  });

  it("never imports rest-adapter/ from src/", () => {
    expect(
      edgesInto(
        graph,
        (from) => from.startsWith("src/"),
        (to) => to.startsWith("rest-adapter/"),
      ),
    ).toEqual([]);
  });

  it("never imports a feature from the job runtime (src/jobs/): the composition root hands it jobs and the sweep", () => {
    expect(
      edgesInto(
        graph,
        (from) => from.startsWith("src/jobs/"),
        (to) => featureOf(to) !== null,
      ),
    ).toEqual([]);
  });

  it("finds a cycle when there is one (the checker itself)", () => {
    const planted: Graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(show(cycles(planted))).toEqual(["a -> b -> c -> a"]);
  });
});
