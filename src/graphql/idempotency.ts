/**
 * The idempotency kit (issue 26): every mutation — every state-changing operation of every face — takes an
 * Idempotency-Key, by one definition:
 *
 * - the schema: each Mutation field gets the `idempotencyKey: String` argument (`addIdempotencyKeyArgument`,
 *   called when the schema is built; its description is the dictionary's, src/graphql/dictionary/index.ts);
 * - REST: a route whose operation is a mutation maps the `Idempotency-Key` header onto that argument
 *   (rest-adapter/routes.ts with `withIdempotencyKey`), so the router, the OpenAPI document and the client follow;
 * - MCP: a tool that is not read-only takes `idempotency_key` (src/mcp/tools.ts, the same document rewrite);
 * - execution: the engine (src/graphql/execution.ts) runs every mutation operation through `idempotent`.
 *
 * The rule (contract section 5, docs/http-conventions.md): keys are scoped per organization. The first request
 * with a key reserves it (a row of `idempotency_keys` with no `finished_at`) before its operation runs; when the
 * operation has run, its result (data, errors of sub-fields, notices) is stored as JSON text, and for 24 hours the
 * same key with the same request answers that result again without running anything, so each face answers the
 * same status and body (a route's status follows from the result). The same key with another request (another
 * operation, path, body or variables), or while the first request still runs, is 409 `conflict`.
 *
 * A request whose mutation failed (its resolver threw: a 4xx such as 400, 402, 404, or a 5xx) stores nothing: the
 * reservation is released and the key may be used again, as POST /unlock always did. The services write in
 * transactions, so a thrown resolver changed nothing. A reservation whose request never finished (its process
 * died) is taken over after IDEMPOTENCY_STALE_SECONDS, longer than any request runs.
 */
import crypto from "node:crypto";
import {
  GraphQLError,
  GraphQLString,
  Kind,
  print,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import type { Context } from "./context";
import { AppError, BadRequestError, ConflictError, maskError } from "./errors";
import type { Notice } from "./notices";
import { logger } from "../logger";

/** The argument every mutation takes, and the variable the REST and MCP faces pass it in. */
export const IDEMPOTENCY_KEY_ARGUMENT = "idempotencyKey";
/** The REST request header carrying the key (header names are case-insensitive; Express reads them lower case). */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** How long a finished request's result is replayed. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** Test seam of the composition root (createApp's `idempotency`): production passes none. */
export interface IdempotencyHooks {
  /** Runs after a key's reservation is committed and before its operation runs: a test holds the first request open here. */
  reserved?(scope: { organizationId: string; key: string }): Promise<void> | void;
}

// ------------------------------------------------------------------------------------------------ the schema

/** Adds `idempotencyKey: String` to every Mutation field (once, when the schema is built; resolvers never declare it). */
export function addIdempotencyKeyArgument(schema: GraphQLSchema): void {
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    if (field.args.some((arg) => arg.name === IDEMPOTENCY_KEY_ARGUMENT))
      throw new Error(`Mutation.${field.name} declares ${IDEMPOTENCY_KEY_ARGUMENT}: the idempotency kit adds it to every mutation`);
    const argument: GraphQLArgument = {
      name: IDEMPOTENCY_KEY_ARGUMENT,
      description: undefined,
      type: GraphQLString,
      defaultValue: undefined,
      deprecationReason: undefined,
      extensions: {},
      astNode: undefined,
    };
    field.args = [...field.args, argument];
  }
}

// ------------------------------------------------------------------------------------------------ documents

const withKey = new WeakMap<DocumentNode, DocumentNode>();

/** Whether the document's operation is a mutation (a state-changing operation). */
export const isMutationDocument = (document: DocumentNode): boolean =>
  document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === "mutation");

/**
 * A fixed mutation document (a REST route's, an MCP tool's) taking the key as `$idempotencyKey` and passing it to
 * its root field; unchanged when it does already. The faces' own documents never spell it out.
 */
export function withIdempotencyKey(document: DocumentNode): DocumentNode {
  const done = withKey.get(document);
  if (done) return done;
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1 || operations[0].operation !== "mutation")
    throw new Error(`withIdempotencyKey: ${operations[0]?.name?.value ?? "the document"} is not one mutation operation`);
  const operation = operations[0];
  const variable = { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: IDEMPOTENCY_KEY_ARGUMENT } } as const;
  const declared = operation.variableDefinitions?.some((v) => v.variable.name.value === IDEMPOTENCY_KEY_ARGUMENT);
  const rewritten: OperationDefinitionNode = {
    ...operation,
    variableDefinitions: declared
      ? operation.variableDefinitions
      : [
          ...(operation.variableDefinitions ?? []),
          { kind: Kind.VARIABLE_DEFINITION, variable, type: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: "String" } } },
        ],
    selectionSet: {
      ...operation.selectionSet,
      selections: operation.selectionSet.selections.map((selection) => {
        if (selection.kind !== Kind.FIELD)
          throw new Error(`withIdempotencyKey: ${operation.name?.value}: root fragments are not supported`);
        if (selection.arguments?.some((a) => a.name.value === IDEMPOTENCY_KEY_ARGUMENT)) return selection;
        return {
          ...selection,
          arguments: [
            ...(selection.arguments ?? []),
            { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: IDEMPOTENCY_KEY_ARGUMENT }, value: variable },
          ],
        };
      }),
    },
  };
  const result: DocumentNode = { ...document, definitions: document.definitions.map((d) => (d === operation ? rewritten : d)) };
  withKey.set(document, result);
  withKey.set(result, result);
  return result;
}

// ------------------------------------------------------------------------------------------------ the request

/** A mutation operation the engine is about to run, on one face (their response keys differ: REST's are snake_case). */
export interface IdempotentRequest {
  face: "rest" | "graphql";
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** The operation's coerced variable values. */
  variables: Record<string, unknown>;
  context: Context;
}

/** The operation's root fields, fragments expanded. */
function rootFields(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen = new Set<string>()): FieldNode[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFields(selection.selectionSet, fragments, seen);
    const name = selection.name.value;
    const fragment = fragments.get(name);
    if (!fragment || seen.has(name)) return [];
    return rootFields(fragment.selectionSet, fragments, new Set([...seen, name]));
  });
}

/** The key the operation carries (null: none), and the variable it came in (left out of the request's fingerprint). */
export function idempotencyKeyOf(request: Omit<IdempotentRequest, "context" | "face">): { key: string; variable?: string } | null {
  const fragments = new Map(
    request.document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const fields = rootFields(request.operation.selectionSet, fragments);
  let found: { key: string; variable?: string } | null = null;
  for (const field of fields) {
    const value = field.arguments?.find((a) => a.name.value === IDEMPOTENCY_KEY_ARGUMENT)?.value;
    const key = value?.kind === Kind.VARIABLE ? request.variables[value.name.value] : value?.kind === Kind.STRING ? value.value : undefined;
    if (key === undefined || key === null) continue;
    if (typeof key !== "string" || !KEY_FORMAT.test(key))
      throw new BadRequestError(`${IDEMPOTENCY_HEADER} must be 1-255 visible ASCII characters (letters, digits, punctuation; no spaces)`);
    if (fields.length !== 1)
      throw new BadRequestError(
        `an ${IDEMPOTENCY_HEADER} (idempotencyKey) names one request: send it on a mutation operation of one root field`,
      );
    found = { key, variable: value?.kind === Kind.VARIABLE ? value.name.value : undefined };
  }
  return found;
}

const printed = new WeakMap<DocumentNode, string>();

/** Canonical JSON (keys sorted, null and undefined properties left out): "the same request" of the key rule. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, canonical(v)]),
  );
}

/** The request's fingerprint: its face, operation (printed, so spacing does not count) and variables but the key. */
function fingerprint(request: IdempotentRequest, keyVariable: string | undefined): string {
  let text = printed.get(request.document);
  if (text === undefined) printed.set(request.document, (text = print(request.document)));
  const variables = Object.fromEntries(Object.entries(request.variables).filter(([name]) => name !== keyVariable));
  return crypto
    .createHash("sha256")
    .update(JSON.stringify([request.face, request.operation.name?.value ?? "", text, canonical(variables)]))
    .digest("hex");
}

// ------------------------------------------------------------------------------------------------ the store

/** What a finished request left: its result, as each face reads it again. */
interface StoredResult {
  data?: unknown;
  errors?: GraphQLFormattedError[];
  notices?: Notice[];
}

type Reservation = { reservedAt: Date } | { replay: StoredResult };

/**
 * Reserves the key for this request, or answers what to replay; 409 for another request or one still running.
 * No transaction: the primary key (organization_id, key) decides between concurrent first requests, and an
 * expired row is removed only as the row it was read (its created_at), so two takeovers cannot both win.
 */
async function reserve(context: Context, key: string, requestHash: string): Promise<Reservation> {
  const prisma = context.db.prisma;
  const organizationId = context.viewer.organizationId;
  const staleMs = context.env.IDEMPOTENCY_STALE_SECONDS * 1000;
  for (let attempt = 0; attempt < 3; attempt++) {
    const reservedAt = new Date();
    const { count } = await prisma.idempotencyKey.createMany({
      data: [{ organization_id: organizationId, key, request_hash: requestHash, response: "", created_at: reservedAt }],
      skipDuplicates: true,
    });
    if (count === 1) return { reservedAt };
    const found = await prisma.idempotencyKey.findUnique({ where: { organization_id_key: { organization_id: organizationId, key } } });
    if (!found) continue; // released meanwhile
    const age = Date.now() - found.created_at.getTime();
    if (age >= (found.finished_at ? IDEMPOTENCY_WINDOW_MS : staleMs)) {
      await prisma.idempotencyKey.deleteMany({ where: { organization_id: organizationId, key, created_at: found.created_at } });
      continue;
    }
    if (found.request_hash !== requestHash) throw new ConflictError(`this ${IDEMPOTENCY_HEADER} was used with a different request`);
    if (!found.finished_at) throw new ConflictError(`a request with this ${IDEMPOTENCY_HEADER} is still in progress`);
    return { replay: JSON.parse(found.response) as StoredResult };
  }
  throw new ConflictError(`this ${IDEMPOTENCY_HEADER} is being reused by concurrent requests`);
}

/** The mutation ran (its root field's resolver returned): its effect happened, so its result is kept, sub-field errors included. */
const completed = (result: ExecutionResult): boolean =>
  result.data !== undefined && !(result.errors ?? []).some((error) => (error.path?.length ?? 0) <= 1);

/** A stored result as the engine returns results: errors as GraphQLErrors again (masked when stored), notices on the context. */
function replayed(stored: StoredResult, context: Context): ExecutionResult {
  if (stored.notices?.length) context.notices = [...(context.notices ?? []), ...stored.notices];
  const errors = stored.errors?.map((e) => new GraphQLError(e.message, { path: e.path, extensions: e.extensions }));
  return { data: stored.data as ExecutionResult["data"], ...(errors?.length ? { errors } : {}) };
}

/**
 * Runs a mutation operation under the key rule when it carries a key (`execute` runs it); as it is otherwise. The
 * key is on the context for the resolvers that record it (an unlock's operation_key).
 */
export async function idempotent(
  request: IdempotentRequest,
  execute: () => Promise<ExecutionResult>,
  hooks?: IdempotencyHooks,
): Promise<ExecutionResult> {
  let keyed: ReturnType<typeof idempotencyKeyOf>;
  let reservation: Reservation | undefined;
  const context = request.context;
  try {
    keyed = idempotencyKeyOf(request);
    if (keyed) reservation = await reserve(context, keyed.key, fingerprint(request, keyed.variable));
  } catch (error) {
    // A bad key, another request or one still running: the request's answer, before anything ran.
    if (error instanceof AppError) return { errors: [error] };
    throw error;
  }
  if (!keyed || !reservation) return execute();
  if ("replay" in reservation) return replayed(reservation.replay, context);
  context.idempotencyKey = keyed.key;
  const where = {
    organization_id: context.viewer.organizationId,
    key: keyed.key,
    created_at: reservation.reservedAt,
    finished_at: null,
  };
  // Its own statements use the root client: the request's time budget must not keep the outcome from being written.
  const prisma = context.db.prisma;
  let result: ExecutionResult;
  try {
    await hooks?.reserved?.({ organizationId: context.viewer.organizationId, key: keyed.key });
    result = await execute();
  } catch (error) {
    await prisma.idempotencyKey.deleteMany({ where });
    throw error;
  }
  if (!completed(result)) {
    await prisma.idempotencyKey.deleteMany({ where });
    return result;
  }
  const stored: StoredResult = {
    data: result.data,
    ...(result.errors?.length ? { errors: result.errors.map((e) => maskError(e.toJSON(), e)) } : {}),
    ...(context.notices?.length ? { notices: context.notices } : {}),
  };
  try {
    const { count } = await prisma.idempotencyKey.updateMany({
      where,
      data: { response: JSON.stringify(stored), finished_at: new Date() },
    });
    if (count === 0) logger.warn("idempotency: the reservation was taken over before its request finished", { key: keyed.key });
  } catch (error) {
    // The operation's effect happened and its answer goes out; the key stays reserved until it is stale.
    logger.error("idempotency: the result could not be stored", { key: keyed.key, error: String(error) });
  }
  return result;
}
