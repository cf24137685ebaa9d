/**
 * Districts and schools carry the same nested blocks. Tables of those blocks name their owner with a
 * district_id or school_id column; these are the only identifiers block SQL puts into statements.
 */
export type EntityKind = "district" | "school";

export const ENTITY_SQL: Readonly<Record<EntityKind, { table: string; ownerColumn: string }>> = {
  district: { table: "districts", ownerColumn: "district_id" },
  school: { table: "schools", ownerColumn: "school_id" },
};
