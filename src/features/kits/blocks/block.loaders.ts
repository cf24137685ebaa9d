/**
 * Per-request block loaders, created on first use: for each block and entity kind, one statement per
 * batch of record ids running the block's own SQL (the same rows, in the same order, as a list
 * statement's column of that block), one result per id in id order.
 */
import DataLoader from "dataloader";
import type { Db } from "../../../db/client";
import { SqlParams } from "../../../db/sql";
import type { Viewer } from "../../account/auth/viewer";
import { ENTITY_SQL, type EntityKind } from "../common/entity-kind";
import type { BlockDefinition } from "./block";

export function createBlockLoaders(db: Db, viewer: Viewer) {
  const loaders: Record<EntityKind, Map<BlockDefinition, DataLoader<string, unknown>>> = { district: new Map(), school: new Map() };
  const batch = (block: BlockDefinition, kind: EntityKind) => async (ids: readonly string[]) => {
    const p = new SqlParams();
    const idList = p.add(ids);
    let org: string | undefined;
    const sql = block.sql({ kind, record: "e", org: () => (org ??= p.add(viewer.organizationId)) });
    const rows = await db.query<{ __key: string; __rows: unknown }>(
      `SELECT e.id AS __key, ${sql} AS __rows FROM ${ENTITY_SQL[kind].table} e WHERE e.id = ANY(${idList}::uuid[])`,
      p.values,
    );
    const found = new Map(rows.map((row) => [row.__key, row.__rows]));
    return ids.map((id) => block.decode(found.get(id) ?? null));
  };
  return {
    /** The block's decoded rows of the record `id`. */
    load<Rows>(block: BlockDefinition<Rows>, kind: EntityKind, id: string): Promise<Rows> {
      const def = block as BlockDefinition;
      let loader = loaders[kind].get(def);
      if (!loader) loaders[kind].set(def, (loader = new DataLoader(batch(def, kind))));
      return loader.load(id) as Promise<Rows>;
    },
  };
}

declare module "../../../graphql/loader-groups" {
  interface Loaders {
    blocks: ReturnType<typeof createBlockLoaders>;
  }
}
