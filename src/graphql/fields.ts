/**
 * Type classes keep the database's snake_case property names (rows are served as they come, with no
 * per-row copying); `Col` publishes each as the camelCase GraphQL field. TypeGraphQL's basic resolver
 * reads the property by its TypeScript name, so no mapping code runs per field.
 */
import {
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLUnionType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  Kind,
  visit,
  type DocumentNode,
  type GraphQLFieldConfigMap,
  type GraphQLFieldResolver,
  type GraphQLNamedType,
  type GraphQLOutputType,
} from "graphql";
import { Field, Float, getMetadataStorage, ID, Int } from "type-graphql";
import { camel, snake } from "./naming";
import { DateScalar, DateTimeScalar, JSONScalar, UUIDScalar } from "./scalars";

type TypeFn = Parameters<typeof Field>[0];
const KINDS = {
  string: () => String,
  int: () => Int,
  float: () => Float,
  bool: () => Boolean,
  id: () => ID,
  uuid: () => UUIDScalar,
  datetime: () => DateTimeScalar,
  date: () => DateScalar,
  json: () => JSONScalar,
  strings: () => [String],
} satisfies Record<string, TypeFn>;
export type ColKind = keyof typeof KINDS;

interface FieldMetadata {
  target: Function;
  name: string;
  schemaName: string;
  roles?: unknown[];
  middlewares?: unknown[];
}

/**
 * A timestamp as rows carry it: a Date (pg's parser) or ISO 8601 UTC text with milliseconds, formatted
 * by PostgreSQL where a statement selects it so (json-rows). Both serialize to the same string.
 */
export type Timestamp = Date | string;

/** A column a type publishes: its property (= column) name and kind. */
export interface ColumnInfo {
  property: string;
  kind: ColKind | "other";
}

const COLUMNS = new Map<Function, ColumnInfo[]>();

/** The Col properties of a type (its own after those of the classes it extends), in declaration order. */
export function columnsOf(type: Function): ColumnInfo[] {
  const chain: Function[] = [];
  for (let c: unknown = type; typeof c === "function" && c !== Function.prototype; c = Object.getPrototypeOf(c))
    chain.unshift(c as Function);
  return chain.flatMap((c) => COLUMNS.get(c) ?? []);
}

/** A column published under its camelCase name. Nullable unless `required`. Described by the field dictionary (src/graphql/dictionary). */
export function Col(kind: ColKind | TypeFn, options: { required?: boolean } = {}): PropertyDecorator {
  return (target, property) => {
    const owner = target.constructor;
    if (!COLUMNS.has(owner)) COLUMNS.set(owner, []);
    COLUMNS.get(owner)!.push({ property: String(property), kind: typeof kind === "string" ? kind : "other" });
    const typeFn = typeof kind === "string" ? KINDS[kind] : kind;
    Field(typeFn as never, {
      name: camel(String(property)),
      nullable: !options.required,
    })(target, property);
  };
}

/**
 * Values a service loaded ahead for fields that have resolvers (a list resolver loading every block of a
 * page at once): `source[PREFETCHED][graphqlFieldName]`, exactly what the field resolver would return
 * (null included). The REST executor serves them without calling the resolver; the resolvers themselves
 * find the same rows in their loaders, which the prefetch filled.
 */
export const PREFETCHED = Symbol("prefetched");
export interface Prefetchable {
  [PREFETCHED]?: Record<string, unknown>;
}

/**
 * The schema the compiled execution engine runs (execution.ts) for REST and /graphql: the same types and
 * resolvers, with every output field named by its REST (snake_case) name, and no resolver on fields
 * that only read the property of that name (Col and other plain @Field properties). graphql-jit then
 * compiles those reads inline instead of calling a resolver per field; REST documents are rewritten to
 * select fields by their REST names (restDocument). Fields with field resolvers keep them, served from
 * PREFETCHED when the source carries the value (fields with arguments by their resolver, which reads it).
 */
export function restSchema(schema: GraphQLSchema): GraphQLSchema {
  const plainProperty = plainPropertyReader();
  const mapped = new Map<string, GraphQLNamedType>();
  const named = <T extends GraphQLNamedType>(type: T): T => (mapped.get(type.name) as T | undefined) ?? type;
  const output = (type: GraphQLOutputType): GraphQLOutputType => {
    if (isNonNullType(type)) return new GraphQLNonNull(output(type.ofType));
    if (isListType(type)) return new GraphQLList(output(type.ofType));
    return named(type);
  };
  const fields = (typeName: string, config: GraphQLFieldConfigMap<unknown, unknown>) => () =>
    Object.fromEntries(
      Object.entries(config).map(([name, field]) => {
        const restName = snake(name);
        const inline = plainProperty(typeName, name) === restName;
        return [
          restName,
          {
            ...field,
            type: output(field.type),
            // A field with arguments (District.events(limit)) depends on them: its resolver serves the prefetched value.
            resolve: inline
              ? undefined
              : field.resolve && (Object.keys(field.args ?? {}).length ? field.resolve : prefetchedOr(name, field.resolve)),
          },
        ];
      }),
    );
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    if (isObjectType(type)) {
      const config = type.toConfig();
      mapped.set(
        type.name,
        new GraphQLObjectType({ ...config, fields: fields(type.name, config.fields), interfaces: () => config.interfaces.map(named) }),
      );
    } else if (isInterfaceType(type)) {
      const config = type.toConfig();
      mapped.set(
        type.name,
        new GraphQLInterfaceType({ ...config, fields: fields(type.name, config.fields), interfaces: () => config.interfaces.map(named) }),
      );
    } else if (isUnionType(type)) {
      const config = type.toConfig();
      mapped.set(type.name, new GraphQLUnionType({ ...config, types: () => config.types.map(named) }));
    }
  }
  const config = schema.toConfig();
  return new GraphQLSchema({
    ...config,
    query: config.query && named(config.query),
    mutation: config.mutation && named(config.mutation),
    subscription: config.subscription && named(config.subscription),
    types: config.types.filter((t) => !t.name.startsWith("__")).map(named),
  });
}

/** The value a service prefetched for `fieldName` on `source`, if any (field resolvers answer with it first). */
export function prefetched<T>(source: unknown, fieldName: string): T | undefined {
  return (source as Prefetchable | null | undefined)?.[PREFETCHED]?.[fieldName] as T | undefined;
}

const CANONICAL_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * DateTimeISO for the REST executor: the same strings as the scalar's serializer, cheaper. A Date of
 * years 1000-9999 is formatted field by field (Date#toISOString costs three times as much); text
 * already in the canonical form (timestamps PostgreSQL formatted, json-rows) is written as it is;
 * anything else goes through the scalar's own serializer and its validation.
 */
export function serializeTimestamp(value: unknown): unknown {
  if (value instanceof Date) {
    const year = value.getUTCFullYear();
    if (year >= 1000 && year <= 9999) {
      return `${year}-${pad2(value.getUTCMonth() + 1)}-${pad2(value.getUTCDate())}T${pad2(value.getUTCHours())}:${pad2(value.getUTCMinutes())}:${pad2(value.getUTCSeconds())}.${pad3(value.getUTCMilliseconds())}Z`;
    }
  } else if (typeof value === "string" && CANONICAL_TIMESTAMP.test(value)) {
    return value;
  }
  return DateTimeScalar.serialize(value);
}

const CANONICAL_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** UUID for the REST executor: the scalar's own check, without building a RegExp per value; anything else goes to the scalar. */
export function serializeUuid(value: unknown): unknown {
  return typeof value === "string" && CANONICAL_UUID.test(value) ? value : UUIDScalar.serialize(value);
}

function prefetchedOr(fieldName: string, resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const ready = (source as Prefetchable | null | undefined)?.[PREFETCHED]?.[fieldName];
    return ready !== undefined ? ready : resolve(source, args, context, info);
  };
}

/**
 * A document for restSchema: fields selected by their REST names. The response keys stay what the
 * document says (`keys: "document"`, /graphql: `fedId` stays `fedId` through an alias) or become the
 * REST names (`keys: "rest"`: `fedId` and an alias `fedId` are both written as `fed_id`).
 */
export function restDocument(document: DocumentNode, keys: "document" | "rest"): DocumentNode {
  return visit(document, {
    Field(node) {
      if (node.name.value.startsWith("__")) return undefined;
      const name = snake(node.name.value);
      const written = node.alias?.value ?? node.name.value;
      const key = keys === "rest" ? snake(written) : written;
      return { ...node, name: { kind: Kind.NAME, value: name }, alias: key === name ? undefined : { kind: Kind.NAME, value: key } };
    },
  });
}

/**
 * (GraphQL type, field) -> the property a field reads, for fields TypeGraphQL resolves by reading one
 * property of the source object (no field resolver, middleware or authorization); null for any other.
 */
function plainPropertyReader(): (typeName: string, fieldName: string) => string | null {
  const storage = getMetadataStorage() as unknown as {
    objectTypes: { name: string; target: Function }[];
    interfaceTypes: { name: string; target: Function }[];
    fields: FieldMetadata[];
    fieldResolvers: { schemaName: string; getObjectType?: () => Function }[];
    middlewares: { target: Function; fieldName: string }[];
  };
  const classes = new Map([...storage.objectTypes, ...storage.interfaceTypes].map((t) => [t.name, t.target]));
  const lineage = (target: Function): Function[] => {
    const chain: Function[] = [];
    for (let c: unknown = target; typeof c === "function" && c !== Function.prototype; c = Object.getPrototypeOf(c))
      chain.push(c as Function);
    return chain;
  };
  return (typeName, fieldName) => {
    const target = classes.get(typeName);
    if (!target) return null;
    const chain = lineage(target);
    const resolved = storage.fieldResolvers.some((r) => r.schemaName === fieldName && chain.includes(r.getObjectType?.() as Function));
    if (resolved) return null;
    for (const cls of chain) {
      const field = storage.fields.find((f) => f.target === cls && f.schemaName === fieldName);
      if (!field) continue;
      const guarded =
        field.roles !== undefined ||
        (field.middlewares?.length ?? 0) > 0 ||
        storage.middlewares.some((m) => m.target === cls && m.fieldName === field.name);
      return guarded ? null : field.name;
    }
    return null;
  };
}
