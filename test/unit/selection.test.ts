/**
 * Issue 20 point 5: the selection a list resolver reads (src/features/kits/common/selection.ts) is built in
 * steps linear in the document, however often fragments are spread. Fragment look-ups are counted (each
 * expansion of a spread reads one) and refused past a bound, so a walk that expands every spread fails
 * here at once instead of running 2^40 steps.
 */
import { Kind, parse, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode } from "graphql";
import { selectionAt, selectionOf, type Selection } from "../../src/features/kits/common/selection";

function doubling(levels: number): { field: FieldNode; fragments: Record<string, FragmentDefinitionNode> } {
  const fragments = Array.from({ length: levels }, (_, i) =>
    i === levels - 1
      ? `fragment F${i} on District { id annualStatistics { latest { totalEnrollment } } }`
      : `fragment F${i} on District { id ...F${i + 1} ... on District { ...F${i + 1} } ...F${i + 1} }`,
  );
  const document = parse(`{ districts(limit: 1) { data { ...F0 } } } ${fragments.join(" ")}`);
  const operation = document.definitions[0] as OperationDefinitionNode;
  const byName: Record<string, FragmentDefinitionNode> = {};
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) byName[def.name.value] = def;
  return { field: operation.selectionSet.selections[0] as FieldNode, fragments: byName };
}

/** The fragments record, counting look-ups and refusing more than `max` of them. */
function counted(fragments: Record<string, FragmentDefinitionNode>, max: number) {
  const reads = { count: 0 };
  const proxy = new Proxy(fragments, {
    get(target, name) {
      reads.count += 1;
      if (reads.count > max) throw new Error(`more than ${max} fragment look-ups: the walk expands spreads repeatedly`);
      return target[name as string];
    },
  });
  return { proxy, reads };
}

/** Every path of a merged selection, read to the bottom (a lazy selection computes each level here). */
function paths(selection: Selection, prefix = ""): string[] {
  return [...selection.fields].flatMap(([name, below]) => [`${prefix}${name}`, ...paths(below, `${prefix}${name}.`)]);
}

describe("selectionOf (issue 20 point 5)", () => {
  it("merges 40 levels of fragments each spread three times with a linear number of fragment look-ups", () => {
    const { field, fragments } = doubling(40);
    const { proxy, reads } = counted(fragments, 40 * 10);
    const selection = selectionOf({ fieldNodes: [field], fragments: proxy });
    expect(paths(selection).sort()).toEqual(
      ["data", "data.annualStatistics", "data.annualStatistics.latest", "data.annualStatistics.latest.totalEnrollment", "data.id"].sort(),
    );
    expect(selectionAt(selection, "data", "annualStatistics").fields.has("latest")).toBe(true);
    // Each fragment is looked up once per spread in the levels that read it: 3 spreads x 40 fragments x 3 levels at most.
    expect(reads.count).toBeLessThanOrEqual(40 * 3 * 3);
  });

  it("is the same selection object for the same field node (the block plan is cached by it)", () => {
    const { field, fragments } = doubling(3);
    expect(selectionOf({ fieldNodes: [field], fragments })).toBe(selectionOf({ fieldNodes: [field], fragments }));
  });
});
