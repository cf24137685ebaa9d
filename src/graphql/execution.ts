/**
 * The one execution path of /graphql and REST. An operation is validated once (Apollo, with our limit
 * rules, for client documents; GraphQL's own rules for REST's), compiled once with graphql-jit against restSchema (fields under their REST names, plain
 * columns read inline, page blocks served from what the list resolver prefetched) and cached: client
 * documents in an LRU keyed by their hash, REST's fixed operations by document. Each request then only
 * passes the admission checks that need its variables (cost, NUL) and runs the compiled function.
 *
 * Apollo Server stays the GraphQL server (parsing, validation, plugins, APQ, error formatting); it hands
 * execution to `graphqlExecutor` through its gateway interface. The REST adapter calls `executeRest`.
 */
import {
  execute,
  getOperationAST,
  isEnumType,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import type { Request, Response, Router } from "express";
import type { Context } from "./context";
import type { Plan } from "../features/account/auth/viewer";
import { restDocument, restSchema, serializeTimestamp, serializeUuid } from "./fields";
import { AppError, clip } from "./errors";
import { idempotent, type IdempotencyHooks } from "./idempotency";
import { checkOperationCost, checkVariableText, operationCost } from "./limits";
import type { Notice } from "./notices";
import { DateTimeScalar, UUIDScalar } from "./scalars";
import { coerceVariables } from "./variables";

/** Introspection answers from the public schema (camelCase names), not from restSchema. */
const INTROSPECTION = /\b__(schema|type)\b/;

export interface ExecutionEngineOptions {
  maxCost: number;
  /** Compiled client documents kept (least recently used first out). */
  cacheSize: number;
  /** The Idempotency-Key kit's test seam (createApp's `idempotency`); production passes none. */
  idempotency?: IdempotencyHooks;
}

/** Map-ordered LRU: a hit moves the entry to the end; the first entry is the oldest. */
class Lru<K, V> {
  private readonly entries = new Map<K, V>();
  constructor(private readonly capacity: number) {}
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }
  get size(): number {
    return this.entries.size;
  }
}

/** What an engine derives from its schema alone. */
interface SchemaDerived {
  /** The schema operations are compiled against (restSchema). */
  compiledSchema: GraphQLSchema;
  /** REST operations validated (checkRest), and compiled once a request needed one (`query`). */
  restOperations: WeakMap<DocumentNode, { query?: CompiledQuery; operation: OperationDefinitionNode }>;
  /** graphql-jit's leaf options, which every compiled operation was built with. */
  leafSerialization: { disableLeafSerialization: boolean; customSerializers: Record<string, (v: unknown) => unknown> };
}

/**
 * Shared by every engine on one schema object: a process serves one app, but a test bundle builds an app per test file
 * on one schema, and each rebuilt these (test/rest on PostgreSQL: validating and compiling 2.0 -> 0.7 CPU-s).
 */
const SCHEMA_DERIVED = new WeakMap<GraphQLSchema, SchemaDerived>();

function derivedFrom(schema: GraphQLSchema): SchemaDerived {
  let derived = SCHEMA_DERIVED.get(schema);
  if (!derived) {
    derived = {
      compiledSchema: restSchema(schema),
      restOperations: new WeakMap(),
      // Built-in scalars and enums are written as resolvers return them: graphql-jit otherwise calls a
      // serializer and allocates error-path arrays for every leaf (most of a list page's garbage). Rows
      // already hold values of the declared types (pg parses numbers and booleans); enums qualify only
      // while every value is its own name, so passing the value through writes the same JSON.
      leafSerialization: {
        disableLeafSerialization: Object.values(schema.getTypeMap()).every(
          (type) => !isEnumType(type) || type.getValues().every((value) => value.value === value.name),
        ),
        customSerializers: { [DateTimeScalar.name]: serializeTimestamp, [UUIDScalar.name]: serializeUuid },
      },
    };
    SCHEMA_DERIVED.set(schema, derived);
  }
  return derived;
}

export class ExecutionEngine {
  private readonly derived: SchemaDerived;
  private readonly clientOperations: Lru<string, CompiledQuery>;

  constructor(
    readonly schema: GraphQLSchema,
    private readonly options: ExecutionEngineOptions,
  ) {
    this.derived = derivedFrom(schema);
    this.clientOperations = new Lru(options.cacheSize);
  }

  /** Compiled client operations held now (the LRU's size). */
  get cachedOperations(): number {
    return this.clientOperations.size;
  }

  private compile(document: DocumentNode, operationName: string | null | undefined, keys: "document" | "rest"): CompiledQuery {
    const query = compileQuery(
      this.derived.compiledSchema,
      restDocument(document, keys),
      operationName ?? undefined,
      this.derived.leafSerialization,
    );
    if (!isCompiledQuery(query)) throw new Error(`operation does not compile: ${JSON.stringify(query.errors)}`);
    return query;
  }

  /**
   * A /graphql operation Apollo has parsed, validated and admitted (operationAdmission). Introspection
   * runs on the public schema with graphql-js; everything else compiled, once per document hash.
   */
  async executeGraphQL(request: {
    queryHash: string;
    source: string;
    document: DocumentNode;
    operationName: string | null;
    context: Context;
    variables?: Record<string, unknown>;
  }): Promise<ExecutionResult> {
    // An operationName the document does not hold, or several operations and none named: Apollo resolved no
    // operation and passes the first error on (as OPERATION_RESOLUTION_FAILURE, 400), in graphql-js's words.
    const operation = getOperationAST(request.document, request.operationName);
    if (!operation) {
      const message = request.operationName
        ? `Unknown operation named "${clip(request.operationName)}".`
        : "Must provide operation name if query contains multiple operations.";
      return { errors: [new AppError("BAD_USER_INPUT", message)] };
    }
    // operationAdmission checked the values already; this fills in the defaults the compiled query would miss.
    let variables: Record<string, unknown>;
    try {
      variables = this.variables(operation, request.variables);
    } catch (error) {
      return { errors: [error as GraphQLError] };
    }
    if (INTROSPECTION.test(request.source)) {
      return execute({
        schema: this.schema,
        document: request.document,
        contextValue: request.context,
        variableValues: variables,
        operationName: request.operationName,
      });
    }
    const key = `${request.queryHash}:${request.operationName ?? ""}`;
    let query = this.clientOperations.get(key);
    if (!query) {
      query = this.compile(request.document, request.operationName, "document");
      this.clientOperations.set(key, query);
    }
    const run = () => query.query(undefined, request.context, variables) as Promise<ExecutionResult>;
    return coded(await this.run({ face: "graphql", document: request.document, operation, variables, context: request.context }, run));
  }

  /** Runs an operation: a mutation under the Idempotency-Key rule (src/graphql/idempotency.ts), anything else as it is. */
  private run(request: Parameters<typeof idempotent>[0], execute: () => Promise<ExecutionResult>): Promise<ExecutionResult> {
    if (request.operation.operation !== "mutation") return execute();
    return idempotent(request, execute, this.options.idempotency);
  }

  /**
   * The operation's variable values with their defaults, or a VariableValueError (BAD_USER_INPUT) naming the
   * first refused one (src/graphql/variables.ts). Every face runs this before cost and execution.
   */
  variables(operation: OperationDefinitionNode, values: Record<string, unknown> | null | undefined): Record<string, unknown> {
    return coerceVariables(this.schema, operation, values);
  }

  /**
   * Validates a REST operation (the route table's, fixed). Throws when the operation is invalid: a programming
   * error, found by test/rest/openapi.test.ts, which prepares every route. Validated and compiled when a request
   * first needs it (compiling the whole table took 0.6 s of every start, and of every test file's app, which asks
   * for a few routes; validating it 150 ms).
   */
  checkRest(document: DocumentNode): void {
    if (this.derived.restOperations.has(document)) return;
    // Depth and alias bounds are for documents clients write; ours are checked by GraphQL's own rules,
    // and every request still meets the cost bound with its variables (executeRest).
    const errors = validate(this.schema, document, specifiedRules);
    if (errors.length) throw new Error(`REST operation is invalid: ${errors.map((e) => e.message).join("; ")}`);
    const operation = getOperationAST(document);
    if (!operation) throw new Error("REST operation: the document must hold exactly one operation");
    this.derived.restOperations.set(document, { operation });
  }

  /** A REST operation validated (checkRest) and compiled, response keys in snake_case: throws when it does not compile. */
  prepareRest(document: DocumentNode): { query: CompiledQuery; operation: OperationDefinitionNode } {
    this.checkRest(document);
    const prepared = this.derived.restOperations.get(document)!;
    prepared.query ??= this.compile(document, undefined, "rest");
    return prepared as { query: CompiledQuery; operation: OperationDefinitionNode };
  }

  /**
   * Runs a prepared REST operation with the request's variables after the same admission checks as /graphql;
   * `cost` is the operation's cost with those variables (also when it was refused for it); `notices` what the
   * resolvers noted (notices.ts), when any.
   */
  executeRest(document: DocumentNode, variables: Record<string, unknown>, context: () => Context): Promise<RestResult> {
    return this.runRest(this.admitRest(document, variables), context);
  }

  /**
   * A REST operation's admission with the request's variables: its coerced values and cost, computed once
   * for the request (the rate limits' scheduler and meter read this cost: rate-limit.metering.ts), or its
   * refusal, with the cost when the variables were accepted.
   */
  admitRest(document: DocumentNode, variables: Record<string, unknown>): RestAdmission {
    const { query, operation } = this.prepareRest(document);
    let cost: number | undefined;
    try {
      const values = this.variables(operation, variables);
      cost = this.cost(document, operation, values);
      this.admit(document, operation, values, cost);
      return {
        cost,
        run: (ctx) =>
          this.run(
            { face: "rest", document, operation, variables: values, context: ctx },
            () => query.query(undefined, ctx, values) as Promise<ExecutionResult>,
          ),
      };
    } catch (error) {
      return { cost, refused: error as GraphQLError };
    }
  }

  /** Runs an admitted operation (`context` is asked only then), or answers its refusal. */
  async runRest(admission: RestAdmission, context: () => Context): Promise<RestResult> {
    const { cost } = admission;
    if (admission.refused) return { errors: [admission.refused], cost };
    const ctx = context();
    const result = coded(await admission.run(ctx));
    return { ...result, cost, ...(ctx.notices?.length ? { notices: ctx.notices } : {}) };
  }

  /** The cost limit of one operation (GRAPHQL_MAX_COST). */
  get maxCost(): number {
    return this.options.maxCost;
  }

  /** The operation's cost with these variable values (src/graphql/limits.ts). */
  cost(document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown> | null | undefined): number {
    return operationCost(this.schema, document, operation, variables ?? {});
  }

  /** The checks that need the variable values: cost with the actual limits (`cost` when already computed), NUL characters. */
  admit(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variables: Record<string, unknown> | null | undefined,
    cost?: number,
  ): number {
    const checked = checkOperationCost(this.schema, document, operation, variables, this.options.maxCost, cost);
    checkVariableText(variables);
    return checked;
  }
}

/**
 * Errors of a result without data come from the compiled query's own variable parsing (values
 * `coerceVariables` accepted and graphql-jit did not): the client's input, so BAD_USER_INPUT, never masked
 * as internal errors.
 */
function coded(result: ExecutionResult): ExecutionResult {
  if (result.data !== undefined || !result.errors?.length) return result;
  return {
    errors: result.errors.map((error) => (error.extensions?.code ? error : new AppError("BAD_USER_INPUT", clip(error.message, 500)))),
  };
}

/** A REST operation's result, with its cost and the resolvers' notices. */
export type RestResult = ExecutionResult & { cost?: number; notices?: Notice[] };

/** A REST operation with the request's variables, admitted (`run`) or refused; `cost` when the variables were accepted. */
export type RestAdmission =
  | { cost: number; refused?: undefined; run(context: Context): Promise<ExecutionResult> }
  | { cost: number | undefined; refused: GraphQLError };

/** What the REST adapter gets: the engine and the per-request context of an authenticated request. */
export interface RestAdapterHost {
  engine: ExecutionEngine;
  /**
   * The request's context. `budget: "fresh"` (an export's later pages) ends the request's time budget and
   * starts a new one from now: a page of an export gets a page's budget, the whole export none; the client
   * closing the connection still aborts it.
   */
  contextFor(req: Request, res: Response, budget?: "fresh"): Context;
  /** Exports (docs/exports.md): rows per page read (0: the list's maximum page size) and the row cap of each plan. */
  exports?: { chunkRows: number; rowCaps: Record<Plan, number> };
}

/** The /api/v1 routers (rest-adapter/): `router` behind the API key, `open` before it (the OpenAPI document needs no key). */
export interface RestAdapter {
  router: Router;
  open?: Router;
}

/** Builds the /api/v1 routers (rest-adapter/); the composition root passes it to createApp. */
export type RestAdapterFactory = (host: RestAdapterHost) => RestAdapter;
