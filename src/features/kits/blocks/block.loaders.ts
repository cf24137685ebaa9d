/**
 * Per-request block loaders, created on first use: for each entity kind, one statement per batch running every
 * block asked for in that batch, each block's own SQL as one column (the same rows, in the same order, as a list
 * statement's column of that block), one result per (block, record) asked. A record's detail or a search's ten
 * records read their blocks in one statement, not one per block (six for a district: six round trips and plans);
 * blocks under another block's rows (the breakdowns under the statistics) are asked a tick later: one more.
 */
import DataLoader from "dataloader";
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import type { Viewer } from "../../account/auth/viewer";
import { ENTITY_SQL, type EntityKind } from "../common/entity-kind";
import { blockColumn, type BlockDefinition } from "./block";

interface BlockKey {
  block: BlockDefinition;
  id: string;
}

/** A block's name is unique (block.ts). */
const cacheKeyFn = ({ block, id }: BlockKey): string => `${block.name}:${id}`;

export function createBlockLoaders(db: Db, viewer: Viewer) {
  const loaders = new Map<EntityKind, DataLoader<BlockKey, unknown, string>>();
  const batch = (kind: EntityKind) => async (keys: readonly BlockKey[]) => {
    // Every block of the batch for every record of it: a block asked for some records only (a gated block of the
    // unlocked ones) is computed for the others too, and only what was asked is handed back.
    const blocks = [...new Set(keys.map((k) => k.block))];
    const p = new SqlParams();
    const idList = p.add([...new Set(keys.map((k) => k.id))]);
    let org: string | undefined;
    const columns = blocks.map(
      (block) => `${block.sql({ kind, record: "e", org: () => (org ??= p.add(viewer.organizationId)) })} AS ${blockColumn(block)}`,
    );
    const rows = await db.query<Record<string, unknown> & { __key: string }>(
      `SELECT e.id AS __key, ${columns.join(", ")} FROM ${ENTITY_SQL[kind].table} e WHERE e.id = ANY(${idList}::uuid[])`,
      p.values,
      // The same statement for the same blocks, by primary key: planned once (planning took longer than the run).
      { plan: "generic" },
    );
    const found = new Map(rows.map((row) => [row.__key, row]));
    return keys.map(({ block, id }) => block.decode(found.get(id)?.[blockColumn(block)] ?? null));
  };
  return {
    /** The block's decoded rows of the record `id`. */
    load<Rows>(block: BlockDefinition<Rows>, kind: EntityKind, id: string): Promise<Rows> {
      let loader = loaders.get(kind);
      if (!loader) loaders.set(kind, (loader = new DataLoader(batch(kind), { cacheKeyFn })));
      return loader.load({ block: block as BlockDefinition, id }) as Promise<Rows>;
    },
  };
}

declare module "../../../graphql/loader-groups" {
  interface Loaders {
    blocks: ReturnType<typeof createBlockLoaders>;
  }
}
