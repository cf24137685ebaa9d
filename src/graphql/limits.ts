/**
 * The limits every GraphQL operation meets, on /graphql and on REST alike (docs/limits.md):
 * - size: at most GRAPHQL_MAX_TOKENS lexical tokens (the parser stops there, so nothing below ever
 *   sees a larger document);
 * - depth, aliases, operation type and NUL characters: validation rules (they do not depend on variables);
 * - cost: checked once the operation and its variable values are known (`checkOperationCost`), because a
 *   `limit: $n` counts as much as a literal `limit: 200`.
 *
 * Every walk is linear in the document: a fragment's facts are computed once and reused for each of its
 * spreads (a fragment spread twice per level, 25 levels deep, is still 25 fragments of work).
 */
import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  Kind,
  valueFromASTUntyped,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from "graphql";

/** A list field without a `limit` (trend, rows ...) counts this many items. */
const NESTED_LIST_FACTOR = 10;

/**
 * An argument's own cost (its `argumentCost` extension; e.g. `metricQuery`, src/features/catalogue/metrics): the work its
 * value asks for, given the field's page size, added to the field's cost. Must not throw: an invalid value
 * costs 0 here and is refused by its resolver with its own message.
 */
export type ArgumentCost = (value: unknown, limit: number) => number;

export interface GraphQLLimits {
  maxDepth: number;
  maxCost: number;
  maxAliases: number;
  maxTokens: number;
  /** Field selections with every fragment expanded at every spread (selectionLimitRule). */
  maxSelections: number;
}

/** GRAPHQL_MAX_SELECTIONS's default. */
export const DEFAULT_MAX_SELECTIONS = 20_000;

const limitError = (message: string) => new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT", http: { status: 400 } } });

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  return fragments;
}

/**
 * A per-fragment memo of a value computed over selection sets. A fragment being computed (a cycle, which
 * NoFragmentCyclesRule reports anyway) counts as `cycleValue`.
 */
function fragmentMemo<T>(document: DocumentNode, cycleValue: T, compute: (fragment: FragmentDefinitionNode) => T) {
  const fragments = fragmentsOf(document);
  const memo = new Map<string, T>();
  return (name: string): T => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (!fragment) return cycleValue;
    memo.set(name, cycleValue);
    const value = compute(fragment);
    memo.set(name, value);
    return value;
  };
}

/** The deepest field selection of each operation (introspection fields count 0). */
export function depthLimitRule(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const depthOf = (set: SelectionSetNode | undefined): number => {
      if (!set) return 0;
      let max = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) max = Math.max(max, sel.name.value.startsWith("__") ? 0 : 1 + depthOf(sel.selectionSet));
        else if (sel.kind === Kind.INLINE_FRAGMENT) max = Math.max(max, depthOf(sel.selectionSet));
        else max = Math.max(max, fragmentDepth(sel.name.value));
      }
      return max;
    };
    const fragmentDepth = fragmentMemo(context.getDocument(), 0, (fragment) => depthOf(fragment.selectionSet));
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet);
        if (depth > maxDepth) context.reportError(limitError(`query depth ${depth} exceeds the limit of ${maxDepth}`));
      },
    };
  };
}

/**
 * Aliases of each operation, counted as executed: an alias inside a fragment counts once per spread.
 * Aliases are how one request asks for the same expensive field many times.
 */
export function aliasLimitRule(maxAliases: number) {
  return (context: ValidationContext): ASTVisitor => {
    const aliasesOf = (set: SelectionSetNode | undefined): number => {
      if (!set) return 0;
      let total = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) total += (sel.alias ? 1 : 0) + aliasesOf(sel.selectionSet);
        else if (sel.kind === Kind.INLINE_FRAGMENT) total += aliasesOf(sel.selectionSet);
        else total += fragmentAliases(sel.name.value);
      }
      return total;
    };
    const fragmentAliases = fragmentMemo(context.getDocument(), 0, (fragment) => aliasesOf(fragment.selectionSet));
    return {
      OperationDefinition(node) {
        const aliases = aliasesOf(node.selectionSet);
        if (aliases > maxAliases)
          context.reportError(limitError(`the operation uses ${aliases} aliases; at most ${maxAliases} are allowed`));
      },
    };
  };
}

/**
 * Field selections of each operation as executed: every fragment expanded at every spread. The compiler
 * (graphql-jit) walks a field's whole expanded subtree, so a fragment spreading the next one twice, n
 * levels deep, is 2^n selections for it; counting them with a per-fragment memo is linear and refuses
 * that before anything expands it (issue 20 point 5).
 */
export function selectionLimitRule(maxSelections: number) {
  return (context: ValidationContext): ASTVisitor => {
    // Saturates: a 10,000-token document can describe more selections than a double holds.
    const add = (a: number, b: number) => Math.min(a + b, Number.MAX_SAFE_INTEGER);
    const selectionsOf = (set: SelectionSetNode | undefined): number => {
      if (!set) return 0;
      let total = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) total = add(total, add(1, selectionsOf(sel.selectionSet)));
        else if (sel.kind === Kind.INLINE_FRAGMENT) total = add(total, selectionsOf(sel.selectionSet));
        else total = add(total, fragmentSelections(sel.name.value));
      }
      return total;
    };
    const fragmentSelections = fragmentMemo(context.getDocument(), 0, (fragment) => selectionsOf(fragment.selectionSet));
    return {
      OperationDefinition(node) {
        const selections = selectionsOf(node.selectionSet);
        if (selections > maxSelections)
          context.reportError(
            limitError(`the operation selects ${selections} fields once its fragments are expanded; at most ${maxSelections} are allowed`),
          );
      },
    };
  };
}

/** `subscription` (and any other root this schema lacks) is a client error, not an execution failure. */
export function operationTypeRule(context: ValidationContext): ASTVisitor {
  const schema = context.getSchema();
  return {
    OperationDefinition(node) {
      const root =
        node.operation === "query"
          ? schema.getQueryType()
          : node.operation === "mutation"
            ? schema.getMutationType()
            : schema.getSubscriptionType();
      if (!root) context.reportError(limitError(`this API has no ${node.operation} operations`));
    },
  };
}

const NUL_MESSAGE = "text values may not contain the NUL character (U+0000)";

/** U+0000 in a string literal: PostgreSQL text cannot hold it, so it is refused before any resolver runs. */
export function noNulCharacterRule(context: ValidationContext): ASTVisitor {
  return {
    StringValue(node) {
      if (node.value.includes("\u0000")) context.reportError(limitError(NUL_MESSAGE));
    },
  };
}

/** The variable-independent rules, in the order their errors are reported. */
export function limitRules(limits: Pick<GraphQLLimits, "maxDepth" | "maxAliases"> & Partial<Pick<GraphQLLimits, "maxSelections">>) {
  return [
    operationTypeRule,
    depthLimitRule(limits.maxDepth),
    aliasLimitRule(limits.maxAliases),
    selectionLimitRule(limits.maxSelections ?? DEFAULT_MAX_SELECTIONS),
    noNulCharacterRule,
  ];
}

/** Throws a coded client error when a variable value holds U+0000 (walked without recursion). */
export function checkVariableText(variables: Record<string, unknown> | undefined | null): void {
  if (!variables) return;
  const stack: unknown[] = [variables];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (value.includes("\u0000")) throw limitError(NUL_MESSAGE);
    } else if (value && typeof value === "object") {
      for (const item of Object.values(value)) stack.push(item);
    }
  }
}

/** What cost needs of a field's type: its named type when composite, and whether the field is a list. */
interface OutputShape {
  composite: GraphQLCompositeType | null;
  list: boolean;
}
const OUTPUT_SHAPES = new WeakMap<GraphQLOutputType, OutputShape>();

/**
 * A field type's shape, worked out once per type: cost walks every field of every request's document, and graphql-js
 * type predicates outside NODE_ENV=production check for a second realm on every miss (test/rest on PostgreSQL, 33 CPU-s:
 * 2.0 CPU-s in those checks before this, 0.85 after).
 */
function outputShape(type: GraphQLOutputType): OutputShape {
  let shape = OUTPUT_SHAPES.get(type);
  if (!shape) {
    const named = getNamedType(type);
    shape = { composite: isCompositeType(named) ? named : null, list: isListType(getNullableType(type)) };
    OUTPUT_SHAPES.set(type, shape);
  }
  return shape;
}

/**
 * Cost: object-typed fields, multiplied through lists. A list counts `limit` times (the limit argument of
 * the list field, or of the page field that holds it, e.g. districts(limit) { data }), or 10 times for
 * nested lists without a limit. `limit` is read from literals, variable values, variable defaults and
 * the argument's default, in that order. Every root field costs at least 1. An argument with an
 * `argumentCost` extension adds what it returns for its value (a metric query's lookups).
 *
 * A selection set's cost is `fixed + perItem * L`, where L is the item count of the page it sits in
 * (the enclosing page field's limit, else 10): fragments are costed once as such a pair.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> = {},
): number {
  const defaults = new Map<string, unknown>();
  for (const def of operation.variableDefinitions ?? [])
    if (def.defaultValue) defaults.set(def.variable.name.value, valueFromASTUntyped(def.defaultValue));

  const limitOf = (node: FieldNode, field: GraphQLField<unknown, unknown>): number | undefined => {
    const arg = node.arguments?.find((a) => a.name.value === "limit");
    let value: unknown;
    if (arg?.value.kind === Kind.INT) value = Number(arg.value.value);
    else if (arg?.value.kind === Kind.VARIABLE) {
      const name = arg.value.name.value;
      value = variables[name] ?? defaults.get(name);
    }
    const definition = field.args.find((a) => a.name === "limit");
    if (typeof value !== "number") value = definition?.defaultValue;
    // A page size beyond the list's own bounds is refused as such (naming `limit`), not as the cost it would make.
    const range = definition?.extensions?.range as { minimum?: number; maximum?: number } | undefined;
    if (typeof value === "number" && range?.maximum !== undefined && (value < (range.minimum ?? 1) || value > range.maximum))
      throw limitError(`limit must be an integer from ${range.minimum ?? 1} to ${range.maximum}`);
    return typeof value === "number" && value > 0 ? value : undefined;
  };

  // Work an argument asks for beyond the rows it returns (a metric query's per-record lookups): the
  // argument's `argumentCost` extension, given its value and the field's page size.
  const argumentWork = (node: FieldNode, field: GraphQLField<unknown, unknown>, limit: number | undefined): number => {
    let work = 0;
    for (const arg of node.arguments ?? []) {
      const cost = field.args.find((a) => a.name === arg.name.value)?.extensions?.argumentCost;
      if (typeof cost !== "function") continue;
      const value =
        arg.value.kind === Kind.VARIABLE
          ? (variables[arg.value.name.value] ?? defaults.get(arg.value.name.value))
          : valueFromASTUntyped(arg.value, variables);
      work += (cost as ArgumentCost)(value, limit ?? NESTED_LIST_FACTOR);
    }
    return work;
  };

  type Pair = [fixed: number, perItem: number];
  const evaluate = ([fixed, perItem]: Pair, items: number | undefined) => fixed + perItem * (items ?? NESTED_LIST_FACTOR);
  const costOf = (type: GraphQLCompositeType, set: SelectionSetNode | undefined): Pair => {
    const total: Pair = [0, 0];
    if (!set) return total;
    for (const sel of set.selections) {
      let part: Pair;
      if (sel.kind === Kind.FIELD) {
        const field = "getFields" in type ? (type as GraphQLObjectType).getFields()[sel.name.value] : undefined;
        const shape = field && outputShape(field.type);
        if (!field || !shape?.composite) continue;
        const limit = limitOf(sel, field);
        const inner = costOf(shape.composite, sel.selectionSet);
        const work = argumentWork(sel, field, limit);
        if (!shape.list) part = [1 + work + evaluate(inner, limit), 0];
        else if (limit !== undefined) part = [work + limit * (1 + evaluate(inner, undefined)), 0];
        else part = [0, 1 + work + evaluate(inner, undefined)];
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        part = costOf(sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) as GraphQLCompositeType) : type, sel.selectionSet);
      } else {
        part = fragmentCost(sel.name.value);
      }
      total[0] += part[0];
      total[1] += part[1];
    }
    return total;
  };
  const fragmentCost = fragmentMemo<Pair>(document, [0, 0], (fragment) =>
    costOf(schema.getType(fragment.typeCondition.name.value) as GraphQLCompositeType, fragment.selectionSet),
  );

  const root = operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  if (!root) return 0;
  const rootFields = operation.selectionSet.selections.filter((s) => s.kind === Kind.FIELD).length;
  return Math.max(evaluate(costOf(root, operation.selectionSet), undefined), rootFields);
}

/**
 * The operation's cost with these variable values (reported to the caller: `extensions.cost`, `X-Query-Cost`);
 * throws a coded client error when it is more than `maxCost`.
 */
export function checkOperationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined | null,
  maxCost: number,
  cost = operationCost(schema, document, operation, variables ?? {}),
): number {
  if (cost > maxCost) throw limitError(`query cost ${cost} exceeds the limit of ${maxCost}`);
  return cost;
}
