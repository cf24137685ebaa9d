/**
 * What a query selects below the current field, so a list resolver can load the nested blocks a page
 * needs up front (one statement per block, all at once) instead of field by field.
 */
import { Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";
import { camel } from "../../graphql/naming";

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
  const fields = new Map<string, Selection>();
  for (const node of info.fieldNodes) if (node.selectionSet) collect(node.selectionSet, info.fragments, fields);
  const selection = { fields };
  if (info.fieldNodes.length === 1) cache.set(first, selection);
  return selection;
}

/** The selection at `path` below `selection` (empty when not selected). */
export function selectionAt(selection: Selection, ...path: string[]): Selection {
  let current = selection;
  for (const name of path) current = current.fields.get(name) ?? EMPTY;
  return current;
}

function collect(set: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, into: Map<string, Selection>): void {
  for (const node of set.selections) {
    if (node.kind === Kind.FIELD) {
      const name = camel(node.name.value);
      let child = into.get(name) as { fields: Map<string, Selection> } | undefined;
      if (!child) into.set(name, (child = { fields: new Map() }));
      if (node.selectionSet) collect(node.selectionSet, fragments, child.fields);
    } else if (node.kind === Kind.INLINE_FRAGMENT) {
      collect(node.selectionSet, fragments, into);
    } else {
      const fragment = fragments[node.name.value];
      if (fragment) collect(fragment.selectionSet, fragments, into);
    }
  }
}
