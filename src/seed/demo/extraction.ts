/**
 * Demo extraction results written onto real districts and schools. Only these columns are touched:
 * status, ai_summary, summary_generated_at, content_extracted_at, error_message and, for districts,
 * strategic_priorities and meeting_minutes_pdfs. Demo values are recognisable by their prefixes
 * (DEMO_SUMMARY_PREFIX, DEMO_ERROR_PREFIX), which is how a later run finds and undoes them.
 */
import { DEMO_ERROR_PREFIX, DEMO_HOST, DEMO_SUMMARY_PREFIX, STRATEGIC_PRIORITIES } from "./catalog";
import type { DemoEntity } from "./model";
import { dateOffset, DemoRandom, lowerFirst, timestampOffset } from "./random";

export type ExtractionStatus = "completed" | "error" | "processing";

export interface ExtractionUpdate {
  id: string;
  status: ExtractionStatus;
  ai_summary: string | null;
  summary_generated_at: string | null;
  content_extracted_at: string | null;
  error_message: string | null;
  /** Districts only. */
  strategic_priorities?: string[] | null;
  meeting_minutes_pdfs?: string[] | null;
}

export function completedUpdate(seed: number, entity: DemoEntity, vendorNames: readonly string[]): ExtractionUpdate {
  const rng = new DemoRandom(seed, `extraction/${entity.kind}/${entity.fed_id}`);
  const extractedDays = -rng.int(3, 75);
  const place = entity.city ? `${entity.city}, ${entity.state}` : entity.state;
  const students = entity.student_count ? ` serves about ${entity.student_count.toLocaleString("en-US")} students and` : "";
  const timing = { summary_generated_at: timestampOffset(extractedDays + 0.1), content_extracted_at: timestampOffset(extractedDays) };
  const vendorText = vendorNames.length ? ` Demo vendor mix: ${vendorNames.join(", ")}.` : "";

  if (entity.kind === "school") {
    return {
      id: entity.id,
      status: "completed",
      ai_summary: `${DEMO_SUMMARY_PREFIX}${entity.name} (${place})${students || " is a school that"} appears in this demo dataset with invented priorities and vendors.${vendorText} This paragraph is demo content and does not describe the real school.`,
      ...timing,
      error_message: null,
    };
  }
  const priorities = rng.sample(STRATEGIC_PRIORITIES, rng.int(3, 4));
  const minutes = Array.from(
    { length: rng.int(2, 3) },
    (_, k) => `${DEMO_HOST}/minutes/${entity.fed_id}/${dateOffset(extractedDays - 30 * (k + 1))}.pdf`,
  );
  return {
    id: entity.id,
    status: "completed",
    ai_summary: `${DEMO_SUMMARY_PREFIX}${entity.name} (${place})${students || " is a district that"} lists demo priorities such as ${priorities.slice(0, 2).map(lowerFirst).join(" and ")}.${vendorText} This paragraph is demo content and does not describe the real district.`,
    ...timing,
    error_message: null,
    strategic_priorities: priorities,
    meeting_minutes_pdfs: minutes,
  };
}

const FAILURES = [
  "website unreachable during the crawl",
  "no board documents found on the website",
  "document text could not be extracted",
] as const;

export function errorUpdate(entity: DemoEntity): ExtractionUpdate {
  return {
    id: entity.id,
    status: "error",
    ai_summary: null,
    summary_generated_at: null,
    content_extracted_at: null,
    error_message: `${DEMO_ERROR_PREFIX}simulated extraction failure (${FAILURES[entity.index % FAILURES.length]}).`,
    ...(entity.kind === "district" ? { strategic_priorities: null, meeting_minutes_pdfs: null } : {}),
  };
}

export function processingUpdate(entity: DemoEntity): ExtractionUpdate {
  return {
    id: entity.id,
    status: "processing",
    ai_summary: null,
    summary_generated_at: null,
    content_extracted_at: null,
    error_message: null,
    ...(entity.kind === "district" ? { strategic_priorities: null, meeting_minutes_pdfs: null } : {}),
  };
}
