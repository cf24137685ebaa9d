/**
 * The field resolvers of every block (registry.ts), generated: one resolver class per block and entity
 * kind, with one field per block field. A resolver answers with what a list prefetched (PREFETCHED),
 * else null for a gated block of a locked record, else the block's loader shaped for the record.
 */
import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { PREFETCHED, type Prefetchable } from "../../../graphql/fields";
import { isUnlocked } from "../../account/access/access.service";
import type { EntityKind } from "../common/entity-kind";
import { checkLimit } from "../common/list-kit";
import type { BlockDefinition, BlockField, BlockRecord } from "./block";
import { BLOCK_RECORD, holdsBlocks } from "./block.service";
import { recordType } from "./record.service";
import { installedFeatures } from "../../../graphql/feature";

const pascal = (name: string) => name.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/** A bounded list field's value cut to `limit` items (BlockField.limit); other fields' values as they are. */
function cut(field: BlockField<unknown>, value: unknown, limit: number | null | undefined): unknown {
  if (!field.limit || !Array.isArray(value)) return value;
  const n = checkLimit({ limit }, field.limit.max, field.limit.default);
  return field.limit.keep === "last" ? value.slice(Math.max(0, value.length - n)) : value.slice(0, n);
}

function resolve(block: BlockDefinition, field: BlockField<unknown>, kind: EntityKind, holds: boolean) {
  return (root: Prefetchable, ctx: Context, limit?: number | null): unknown => {
    const ready = root[PREFETCHED]?.[field.name];
    if (ready !== undefined) return cut(field, ready, limit);
    const record = (block.under ? (root as Record<symbol, unknown>)[BLOCK_RECORD] : root) as BlockRecord;
    if (block.gated && !isUnlocked(record)) return null;
    return ctx.loaders.blocks.load(block, kind, record.id).then((rows) => {
      const value = field.shape(rows, record);
      if (holds && value) (value as Record<symbol, unknown>)[BLOCK_RECORD] = record;
      return cut(field, value, limit);
    });
  };
}

function resolverClass(block: BlockDefinition, kind: EntityKind): Function {
  class BlockResolver {}
  const prototype = BlockResolver.prototype as unknown as Record<string, unknown>;
  for (const field of block.fields) {
    const holds = !block.under && holdsBlocks(kind, field.name);
    Object.defineProperty(prototype, field.name, { value: resolve(block, field, kind, holds), writable: true, configurable: true });
    Root()(prototype, field.name, 0);
    Ctx()(prototype, field.name, 1);
    if (field.limit) {
      const { default: defaultValue } = field.limit;
      Arg("limit", () => Int, { nullable: true, defaultValue })(prototype, field.name, 2);
    }
    FieldResolver(field.type as never, { nullable: field.nullable })(
      prototype,
      field.name,
      Object.getOwnPropertyDescriptor(prototype, field.name)!,
    );
  }
  // The record's type as its resource declared it (defineRecords): the blocks kit imports no resource.
  Resolver(() => (block.under ? block.under.type() : recordType(kind)))(BlockResolver);
  Object.defineProperty(BlockResolver, "name", { value: `${pascal(kind)}${pascal(block.name)}BlockResolver` });
  return BlockResolver;
}

/** Every installed block's resolver classes (the blocks kit's feature adds them to the schema). */
export const blockResolvers = (): Function[] =>
  installedFeatures().blocks.flatMap((block) => block.kinds.map((kind) => resolverClass(block, kind)));
