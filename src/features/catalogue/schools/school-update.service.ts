/**
 * PATCH /schools/{id}: internal-plan edits of a school's directory fields. Validation messages name
 * the REST (snake_case) property. The UPDATE goes through the Prisma client; the answer is then read
 * like GET /schools/{id}.
 */
import type { Db } from "../../../db/client";
import { Prisma } from "../../../db/generated/client";
import { BadRequestError, ConflictError, echo, ForbiddenError, NotFoundError } from "../../../graphql/errors";
import { snake } from "../../../graphql/naming";
import type { Viewer } from "../../account/auth/viewer";
import type { UpdateSchoolInput } from "./school-update.inputs";
import { loadSchoolsByIds, type SchoolRow } from "./school.service";

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
  if (!/^[A-Za-z]{2}$/.test(v)) throw new BadRequestError(`${snake(key)} must be a two-letter state abbreviation, got ${echo(v)}`);
  return v.toUpperCase();
};
const zip = (key: Key, value: unknown): string => {
  const v = text(key, value);
  if (!/^\d{5}(-\d{4})?$/.test(v)) throw new BadRequestError(`${snake(key)} must be a ZIP code 12345 or 12345-6789, got ${echo(v)}`);
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
    throw new BadRequestError(`${snake(key)} must be an http(s) URL, got ${echo(v)}`);
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

/** Input property -> [column (a School field of the Prisma client), validator]. */
const COLUMNS: Record<Key, [keyof Prisma.SchoolUpdateInput, (key: Key, value: unknown) => Value]> = {
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
    throw new BadRequestError(`${snake(key)} must be a grade span LOW-HIGH of PK, KG, 01-13 (e.g. KG-05), got ${echo(v)}`);
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
  const data: Prisma.SchoolUpdateInput = {};
  for (const key of given) {
    const [column, validate] = COLUMNS[key];
    const raw = input[key];
    if (raw === null && NOT_NULL.has(key)) throw new BadRequestError(`${snake(key)} must not be null`);
    (data as Record<typeof column, Value>)[column] = raw === null ? null : validate(key, raw);
    if (key === "gradeLevels") {
      // Keep the derived columns the grade_levels filter reads in step with the span.
      const span = raw === null ? null : gradeSpan(key, raw);
      Object.assign(data, { grade_low: span?.low ?? null, grade_high: span?.high ?? null, grade_buckets: span?.buckets ?? [] });
    }
  }
  data.last_updated_at = new Date();
  try {
    await db.prisma.school.update({ where: { id }, data, select: { id: true } });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError) {
      // P2002: unique constraint (fed_id is the only unique column a caller sets); P2025: no such row.
      if (error.code === "P2002") throw new ConflictError(`fed_id is already used by another school`);
      if (error.code === "P2025") throw new NotFoundError(`school ${id}`);
    }
    throw error;
  }
  // The answer is read as GET /schools/{id} reads it: with the caller's unlock and follow columns,
  // which Prisma cannot join (unlocks and follows point at any entity type).
  const [row] = await loadSchoolsByIds(db, viewer, [id]);
  if (!row) throw new NotFoundError(`school ${id}`);
  return row;
}
