/** What the demo generators read from the real catalogue, and the shared context they write with. */
import { timestampOffset } from "./random";

export interface DistrictSeedRow {
  id: string;
  fed_id: string;
  name: string;
  state: string;
  physical_city: string | null;
  student_count: number | null;
  school_count: number | null;
  phone: string | null;
}

export interface SchoolSeedRow {
  id: string;
  fed_id: string;
  name: string;
  state: string;
  district_id: string;
  physical_city: string | null;
  student_count: number | null;
  grade_low: string | null;
  grade_high: string | null;
  phone: string | null;
}

export interface CenterSeedRow {
  id: string;
  source_key: string;
  name: string;
  state: string;
}

/** A district or school of the completed subset, in one shape for the per-entity generators. */
export interface DemoEntity {
  kind: "district" | "school";
  id: string;
  fed_id: string;
  name: string;
  state: string;
  city: string | null;
  /** The directory's enrollment, quoted in prose only when present. */
  student_count: number | null;
  /** Enrollment for sizing invented figures: the directory count, else about 450 per school, else null. */
  size_hint: number | null;
  phone: string | null;
  /** The district itself, or the school's parent district. */
  district_id: string;
  /** Position in the subset: drives the rotations that guarantee every value of a list occurs. */
  index: number;
}

/** Typical US public school size, used only to size invented figures when enrollment is missing. */
const STUDENTS_PER_SCHOOL = 450;

/** What a district's and a school's entity read alike from their rows. */
const recordFields = (row: DistrictSeedRow | SchoolSeedRow) => ({
  id: row.id,
  fed_id: row.fed_id,
  name: row.name,
  state: row.state,
  city: row.physical_city,
  student_count: row.student_count,
});

export function districtEntity(row: DistrictSeedRow, index: number): DemoEntity {
  return {
    kind: "district",
    ...recordFields(row),
    size_hint: row.student_count ?? (row.school_count ? row.school_count * STUDENTS_PER_SCHOOL : null),
    phone: row.phone,
    district_id: row.id,
    index,
  };
}

export function schoolEntity(row: SchoolSeedRow, index: number): DemoEntity {
  return {
    kind: "school",
    ...recordFields(row),
    size_hint: row.student_count,
    phone: row.phone,
    district_id: row.district_id,
    index,
  };
}

/** district_id / school_id columns of a row about `entity` (school rows name only the school). */
export const entityColumns = (entity: DemoEntity): { entity_type: string; district_id: string | null; school_id: string | null } =>
  entity.kind === "district"
    ? { entity_type: "district", district_id: entity.id, school_id: null }
    : { entity_type: "school", district_id: null, school_id: entity.id };

/** created_at / loaded_at of every demo row: midnight UTC of the reference (seeding) day, never the clock. */
export const seededAt = (): string => timestampOffset(0);

/**
 * Running counters shared across entities, so that small catalogues (a test's 30 districts) still see
 * every value of each list: contract expiry classes, bid statuses, contact statuses, signal types.
 */
export class Rotation {
  private value = 0;
  next(): number {
    return this.value++;
  }
}

/** Phone in the 555-0100..0199 range reserved for fiction, keeping the entity's area code when known. */
export function fictionalPhone(entityPhone: string | null, lastTwo: number): string {
  const digits = (entityPhone ?? "").replace(/\D/g, "");
  const area = digits.length === 10 ? digits.slice(0, 3) : digits.length === 11 ? digits.slice(1, 4) : "555";
  return `(${area}) 555-01${String(lastTwo % 100).padStart(2, "0")}`;
}
