/**
 * A nested block of district and school records (annual statistics, breakdowns, assessments,
 * special-education finance, the intelligence lists, events ...), declared once. From the
 * declaration come, for each entity kind it applies to:
 *
 * - its column in a list statement: the record's rows as one JSON value (`sql`), so a page of
 *   records and all its blocks is one statement (block.service.ts);
 * - its per-request DataLoader, for records read another way (by id, District.schools): one
 *   statement per batch, running the same `sql` (block.loaders.ts);
 * - its GraphQL field resolvers, which serve what a list prefetched or ask the loader (block.resolver.ts).
 *
 * The rows are decoded (`decode`) and each field's value shaped from them and the record (`shape`:
 * history gating and other rules of the block). A block is added with one file declaring it and one
 * line in registry.ts.
 */
import type { EntityKind } from "../common/entity-kind";

export type { EntityKind };

/** What a block's shape sees of the record: its id, and the caller's access to it (src/features/account/access/). */
export interface BlockRecord {
  id: string;
  __unlock_state: string | null;
  __history_open: boolean;
}

/** Where a block's SQL stands: the record's kind, the alias of its row, and the caller's organization. */
export interface BlockSqlContext {
  kind: EntityKind;
  /** Alias of the record's row (a row of `districts` or `schools`). */
  record: string;
  /** Placeholder of the caller's organization id (added on first use). */
  org(): string;
}

/** A GraphQL field a block's rows make: a field resolver of the record type (or of the `under` field's type). */
export interface BlockField<Rows> {
  /** The GraphQL (camelCase) field name. */
  name: string;
  /** Its GraphQL type, as TypeGraphQL takes it (`() => Type` or `() => [Type]`). */
  type: () => unknown;
  nullable?: boolean;
  /** The field's value, from the block's decoded rows for this record. */
  shape(rows: Rows, record: BlockRecord): unknown;
  /**
   * A list field bounded by a `limit` argument (1 to `max`, default `default`; the cost analysis counts
   * it like any nested list's limit): the shaped list is cut to its first, or last, `limit` items.
   */
  limit?: { default: number; max: number; keep: "first" | "last" };
}

export interface BlockDefinition<Rows = unknown> {
  /** snake_case, unique: names its column in a statement (blockColumn). */
  name: string;
  /** The entity kinds whose records have the block. */
  kinds: readonly EntityKind[];
  /**
   * A field of the record whose value holds this block's fields (breakdowns: `annualStatistics`), and
   * the GraphQL type of that value; absent, the fields are the record's own.
   */
  under?: { field: string; type: () => Function };
  /** Rows only for records the caller unlocked: null for the others, and no SQL runs for them. */
  gated?: boolean;
  /** SQL: the record's rows of this block as one JSON value (src/features/kits/common/json-rows.ts), NULL when none. */
  sql(context: BlockSqlContext): string;
  /** That JSON value (null when none) -> the rows the fields are shaped from. */
  decode(json: unknown): Rows;
  fields: readonly BlockField<Rows>[];
}

/** The block's column in a list statement or a block loader's statement. */
export const blockColumn = (block: Pick<BlockDefinition, "name">): string => `__block_${block.name}`;

export function defineBlock<Rows>(definition: BlockDefinition<Rows>): BlockDefinition<Rows> {
  if (!/^[a-z][a-z0-9_]*$/.test(definition.name)) throw new Error(`block ${definition.name}: the name must be snake_case`);
  if (definition.gated && definition.under) throw new Error(`block ${definition.name}: a nested block cannot be gated`);
  return definition;
}
