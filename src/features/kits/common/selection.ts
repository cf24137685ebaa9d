/**
 * What a query selects below the current field, so a list resolver can load the nested blocks a page
 * needs up front (one statement per block, all at once) instead of field by field.
 *
 * Linear in the document (issue 20 point 5): a level is computed only when it is read, from the distinct
 * selection sets that make it up, and each fragment joins a level once however often it is spread there
 * (merging is idempotent). Expanding every spread instead took 2^n steps for fragments that spread the
 * next one twice.
 */
import { Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";
import { camel } from "../../../graphql/naming";

/** Selected fields by GraphQL (camelCase) name, whatever the document calls them (REST documents select snake_case names). */
export interface Selection {
  readonly fields: ReadonlyMap<string, Selection>;
}

const EMPTY: Selection = { fields: new Map() };
const cache = new WeakMap<FieldNode, Selection>();

/** The selection below the field being resolved (all its field nodes merged; fragments expanded). */
export function selectionOf(info: Pick<GraphQLResolveInfo, "fieldNodes" | "fragments">): Selection {
  const first = info.fieldNodes[0];
  const cached = info.fieldNodes.length === 1 ? cache.get(first) : undefined;
  if (cached) return cached;
  const sets = info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  const selection = new LazySelection(sets, info.fragments);
  if (info.fieldNodes.length === 1) cache.set(first, selection);
  return selection;
}

/** The selection at `path` below `selection` (empty when not selected). */
export function selectionAt(selection: Selection, ...path: string[]): Selection {
  let current = selection;
  for (const name of path) current = current.fields.get(name) ?? EMPTY;
  return current;
}

/** One level: the merged selection sets of the fields at this place; the level below is built on first read. */
class LazySelection implements Selection {
  private merged?: Map<string, Selection>;
  constructor(
    private readonly sets: readonly SelectionSetNode[],
    private readonly fragments: Record<string, FragmentDefinitionNode>,
  ) {}

  get fields(): ReadonlyMap<string, Selection> {
    if (!this.merged) {
      // Each selection set (the fields' own, inline fragments', fragments') is read at most once per level.
      const seen = new Set<SelectionSetNode>();
      const children = new Map<string, Set<SelectionSetNode>>();
      const stack = [...this.sets];
      while (stack.length) {
        const set = stack.pop()!;
        if (seen.has(set)) continue;
        seen.add(set);
        for (const node of set.selections) {
          if (node.kind === Kind.FIELD) {
            const name = camel(node.name.value);
            let below = children.get(name);
            if (!below) children.set(name, (below = new Set()));
            if (node.selectionSet) below.add(node.selectionSet);
          } else if (node.kind === Kind.INLINE_FRAGMENT) {
            stack.push(node.selectionSet);
          } else {
            const fragment = this.fragments[node.name.value];
            if (fragment) stack.push(fragment.selectionSet);
          }
        }
      }
      this.merged = new Map([...children].map(([name, below]) => [name, new LazySelection([...below], this.fragments)]));
    }
    return this.merged;
  }
}
