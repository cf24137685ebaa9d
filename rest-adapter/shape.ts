/**
 * Renames a GraphQL result to REST's snake_case, compiled once per operation from its selection set:
 * object fields are renamed by the one naming rule; values of JSON scalars (key_facts, source_urls,
 * metric_values ...) are passed through untouched, because their keys are data, not field names.
 */
import {
  getNamedType,
  isCompositeType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { snake } from "./naming";

interface PlanField {
  from: string;
  to: string;
  child: Plan | null;
}
type Plan = PlanField[];

export function compileShape(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): (data: unknown) => unknown {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const build = (type: GraphQLCompositeType, set: SelectionSetNode, into: Map<string, PlanField> = new Map()): Plan => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        if (into.has(key)) continue;
        const field = "getFields" in type ? (type as GraphQLObjectType).getFields()[sel.name.value] : undefined;
        const named = field ? getNamedType(field.type) : undefined;
        const child = named && isCompositeType(named) && sel.selectionSet ? build(named, sel.selectionSet) : null;
        into.set(key, { from: key, to: snake(key), child });
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) as GraphQLCompositeType) : type;
        build(cond, sel.selectionSet, into);
      } else {
        const frag = fragments.get(sel.name.value);
        if (frag) build(schema.getType(frag.typeCondition.name.value) as GraphQLCompositeType, frag.selectionSet, into);
      }
    }
    return [...into.values()];
  };
  const root = operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  if (!root) throw new Error("schema has no root type for this operation");
  const plan = build(root, operation.selectionSet);
  return (data) => apply(plan, data);
}

function apply(plan: Plan, value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (Array.isArray(value)) return value.map((item) => apply(plan, item));
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of plan) {
    const v = source[field.from];
    out[field.to] = field.child && v !== null && v !== undefined ? apply(field.child, v) : v;
  }
  return out;
}
