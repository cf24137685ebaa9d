/**
 * PATCH /schools/{id}: internal-plan edits of a school's directory fields. Validation messages name
 * the REST (snake_case) property. One UPDATE returns the updated row with the caller's access columns.
 */
import type { Db } from "../../db/client";
import { SqlParams } from "../../db/sql";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "../../graphql/errors";
import { snake } from "../../graphql/naming";
import type { Viewer } from "../auth/viewer";
import type { UpdateSchoolInput } from "./school-update.inputs";
import { accessColumns, presentSchool, unlockJoin, type SchoolRow } from "./school.service";

type Key = keyof UpdateSchoolInput;
type Value = string | number | string[] | null;

const TEXT_MAX = 300;
const text = (key: Key, value: unknown): string => {
  const trimmed = String(value).trim();
  if (!trimmed) throw new BadRequestError(`${snake(key)} must not be empty (use null to clear it)`);
  if (trimmed.length > TEXT_MAX) throw new BadRequestError(`${snake(key)} must be at most ${TEXT_MAX} characters`);
  return trimmed;
};
const stateCode = (key: Key, value: unknown): string => {
  const v = text(key, value);
  if (!/^[A-Za-z]{2}$/.test(v)) throw new BadRequestError(`${snake(key)} must be a two-letter state abbreviation, got "${v}"`);
  return v.toUpperCase();
};
const zip = (key: Key, value: unknown): string => {
  const v = text(key, value);
  if (!/^\d{5}(-\d{4})?$/.test(v)) throw new BadRequestError(`${snake(key)} must be a ZIP code 12345 or 12345-6789, got "${v}"`);
  return v;
};
const url = (key: Key, value: unknown): string => {
  const v = text(key, value);
  let parsed: URL | null = null;
  try {
    parsed = new URL(v);
  } catch {
    /* reported below */
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw new BadRequestError(`${snake(key)} must be an http(s) URL, got "${v}"`);
  }
  return v;
};
const nonNegative = (key: Key, value: unknown, integer: boolean): number => {
  const n = value as number;
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) {
    throw new BadRequestError(`${snake(key)} must be ${integer ? "an integer" : "a number"} >= 0`);
  }
  return n;
};

/** Input property -> [column, validator]. The order is the order of the SET list. */
const COLUMNS: Record<Key, [string, (key: Key, value: unknown) => Value]> = {
  name: ["name", text],
  websiteUrl: ["website_url", url],
  gradeLevels: ["grade_levels", (k, v) => gradeSpan(k, v).span],
  studentCount: ["student_count", (k, v) => nonNegative(k, v, true)],
  fedId: ["fed_id", text],
  localeType: ["locale_type", text],
  schoolType: ["school_type", text],
  phone: ["phone", text],
  county: ["county", text],
  physicalAddress: ["physical_address", text],
  physicalCity: ["physical_city", text],
  physicalState: ["physical_state", stateCode],
  physicalZip: ["physical_zip", zip],
  mailingAddress: ["mailing_address", text],
  mailingCity: ["mailing_city", text],
  mailingState: ["mailing_state", stateCode],
  mailingZip: ["mailing_zip", zip],
  studentTeacherRatio: ["student_teacher_ratio", (k, v) => nonNegative(k, v, false)],
};
const NOT_NULL: ReadonlySet<Key> = new Set<Key>(["name", "fedId"]);

const GRADES = ["PK", "KG", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13"];
function gradeCode(raw: string): string | null {
  const v = raw.trim().toUpperCase();
  if (v === "K") return "KG";
  if (/^\d{1,2}$/.test(v)) return v.padStart(2, "0");
  return v;
}
function bucketOf(grade: string): string {
  if (grade === "PK") return "pre_k";
  if (grade === "KG") return "elementary";
  const n = Number(grade);
  return n <= 5 ? "elementary" : n <= 8 ? "middle" : "high";
}
/** A CCD grade span "LOW-HIGH" (or one grade), normalized, with its grade buckets for the grade_levels filter. */
export function gradeSpan(key: Key, value: unknown): { span: string; low: string; high: string; buckets: string[] } {
  const v = text(key, value);
  const parts = v.split("-");
  const low = gradeCode(parts[0] ?? "");
  const high = gradeCode(parts[1] ?? parts[0] ?? "");
  const from = low ? GRADES.indexOf(low) : -1;
  const to = high ? GRADES.indexOf(high) : -1;
  if (parts.length > 2 || from < 0 || to < 0 || to < from) {
    throw new BadRequestError(`${snake(key)} must be a grade span LOW-HIGH of PK, KG, 01-13 (e.g. KG-05), got "${v}"`);
  }
  const buckets = [...new Set(GRADES.slice(from, to + 1).map(bucketOf))];
  return { span: `${GRADES[from]}-${GRADES[to]}`, low: GRADES[from], high: GRADES[to], buckets };
}

export async function updateSchool(db: Db, viewer: Viewer, id: string, input: UpdateSchoolInput): Promise<SchoolRow> {
  if (viewer.plan !== "internal") throw new ForbiddenError("updating a school requires the internal plan");
  const given = (Object.keys(input) as Key[]).filter((k) => input[k] !== undefined && k in COLUMNS);
  if (!given.length) {
    throw new BadRequestError(`the body must set at least one of: ${(Object.keys(COLUMNS) as Key[]).map(snake).join(", ")}`);
  }
  const p = new SqlParams();
  const sets: string[] = [];
  for (const key of given) {
    const [column, validate] = COLUMNS[key];
    const raw = input[key];
    if (raw === null && NOT_NULL.has(key)) throw new BadRequestError(`${snake(key)} must not be null`);
    sets.push(`${column} = ${p.add(raw === null ? null : validate(key, raw))}`);
    if (key === "gradeLevels") {
      // Keep the derived columns the grade_levels filter reads in step with the span.
      const span = raw === null ? null : gradeSpan(key, raw);
      sets.push(`grade_low = ${p.add(span?.low ?? null)}`, `grade_high = ${p.add(span?.high ?? null)}`);
      sets.push(`grade_buckets = ${p.add(span?.buckets ?? [])}::text[]`);
    }
  }
  const org = p.add(viewer.organizationId);
  const sql = `WITH s AS (
      UPDATE schools SET ${sets.join(", ")}, last_updated_at = now() WHERE id = ${p.add(id)}::uuid RETURNING *
    )
    SELECT s.*, ${accessColumns(org)} FROM s ${unlockJoin(org)}`;
  let rows: Record<string, unknown>[];
  try {
    rows = await db.query(sql, p.values);
  } catch (error) {
    if ((error as { code?: string }).code === "23505") throw new ConflictError(`fed_id is already used by another school`);
    throw error;
  }
  if (!rows.length) throw new NotFoundError(`school ${id}`);
  return presentSchool(rows[0], viewer);
}
