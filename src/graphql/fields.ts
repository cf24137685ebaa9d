/**
 * Type classes keep the database's snake_case property names (rows are served as they come, with no
 * per-row copying); `Col` publishes each as the camelCase GraphQL field. TypeGraphQL's basic resolver
 * reads the property by its TypeScript name, so no mapping code runs per field.
 */
import { Field, Float, ID, Int } from "type-graphql";
import { camel } from "../../rest-adapter/naming";
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

/** A column published under its camelCase name. Nullable unless `required`. */
export function Col(kind: ColKind | TypeFn, options: { required?: boolean; description?: string } = {}): PropertyDecorator {
  return (target, property) => {
    const typeFn = typeof kind === "string" ? KINDS[kind] : kind;
    Field(typeFn as never, {
      name: camel(String(property)),
      nullable: !options.required,
      description: options.description,
    })(target, property);
  };
}
