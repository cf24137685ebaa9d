/**
 * Districts and schools carry the same nested blocks. Tables of those blocks name their owner with a
 * district_id or school_id column; these are the only identifiers block loaders put into SQL.
 */
export type EntityKind = "district" | "school";

export const ENTITY_KINDS: readonly EntityKind[] = ["district", "school"];

export const ENTITY_SQL: Readonly<Record<EntityKind, { table: string; ownerColumn: string }>> = {
  district: { table: "districts", ownerColumn: "district_id" },
  school: { table: "schools", ownerColumn: "school_id" },
};

/** One loader set per entity kind, built by the same factory. */
export function perEntityKind<T>(build: (kind: EntityKind) => T): Record<EntityKind, T> {
  return { district: build("district"), school: build("school") };
}
