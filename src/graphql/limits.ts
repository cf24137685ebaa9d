/**
 * Query depth and cost limits, as validation rules, so abusive queries fail before any resolver runs.
 * Cost counts object-typed fields, multiplied through lists: a list counts `limit` times (the limit
 * argument of the list field, or of the page field that holds it, e.g. districts(limit) { data }),
 * or 10 times for nested lists without a limit (trend, rows ...).
 */
import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type SelectionSetNode,
  type ValidationContext,
  type GraphQLCompositeType,
  type GraphQLObjectType,
  type ValueNode,
} from "graphql";

const NESTED_LIST_FACTOR = 10;

export function depthLimitRule(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const depthOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!set) return 0;
      let max = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) max = Math.max(max, sel.name.value.startsWith("__") ? 0 : 1 + depthOf(sel.selectionSet, seen));
        else if (sel.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, depthOf(sel.selectionSet, seen));
        else if (!seen.has(sel.name.value)) {
          const next = new Set(seen).add(sel.name.value);
          max = Math.max(max, depthOf(fragments.get(sel.name.value)?.selectionSet, next));
        }
      }
      return max;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > maxDepth)
          context.reportError(
            new GraphQLError(`query depth ${depth} exceeds the limit of ${maxDepth}`, { extensions: { code: "BAD_USER_INPUT" } }),
          );
      },
    };
  };
}

export function costLimitRule(maxCost: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const schema = context.getSchema();
    const limitOf = (node: FieldNode, field: GraphQLField<unknown, unknown>, variables: Record<string, unknown>): number | undefined => {
      const arg = node.arguments?.find((a) => a.name.value === "limit");
      const value = arg ? literal(arg.value, variables) : field.args.find((a) => a.name === "limit")?.defaultValue;
      return typeof value === "number" && value > 0 ? value : undefined;
    };
    const costOf = (type: GraphQLCompositeType, set: SelectionSetNode | undefined, seen: Set<string>, pageLimit?: number): number => {
      if (!set) return 0;
      let total = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          if (!("getFields" in type)) continue;
          const field = (type as GraphQLObjectType).getFields()[sel.name.value];
          if (!field) continue;
          const named = getNamedType(field.type);
          if (!isCompositeType(named)) continue;
          const list = isListType(getNullableType(field.type));
          const limit = limitOf(sel, field, {});
          const factor = list ? (limit ?? pageLimit ?? NESTED_LIST_FACTOR) : 1;
          total += factor * (1 + costOf(named, sel.selectionSet, seen, list ? undefined : limit));
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          const cond = sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) as GraphQLCompositeType) : type;
          total += costOf(cond, sel.selectionSet, seen, pageLimit);
        } else if (!seen.has(sel.name.value)) {
          const frag = fragments.get(sel.name.value);
          if (frag) {
            const fragType = schema.getType(frag.typeCondition.name.value) as GraphQLCompositeType;
            total += costOf(fragType, frag.selectionSet, new Set(seen).add(sel.name.value), pageLimit);
          }
        }
      }
      return total;
    };
    return {
      OperationDefinition(node) {
        const root = node.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
        if (!root) return;
        const cost = costOf(root, node.selectionSet, new Set());
        if (cost > maxCost)
          context.reportError(
            new GraphQLError(`query cost ${cost} exceeds the limit of ${maxCost}`, { extensions: { code: "BAD_USER_INPUT" } }),
          );
      },
    };
  };
}

function literal(node: ValueNode, variables: Record<string, unknown>): unknown {
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) return variables[node.name.value];
  return undefined;
}
