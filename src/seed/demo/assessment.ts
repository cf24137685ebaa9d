/**
 * Demo assessment results (school years 2022 and 2023): grade rows per entity, state rows per
 * state/grade/subject, and summaries whose metrics are grade averages. A summary's
 * state_proficiency_pct is the average of the state rows over the same grades, so
 * vs_state_pp = proficiency_pct - state_proficiency_pct can be recomputed from the stored rows.
 */
import type { DemoRow } from "./bulk";
import { DEMO_HOST, DEMO_SOURCE } from "./catalog";
import { type DemoEntity, seededAt } from "./model";
import { clamp, DemoRandom, demoUuid, round } from "./random";

export const DEMO_ASSESSMENT_SOURCE_ID = "demo-assessment";
export const DEMO_ASSESSMENT_SOURCE_NAME = "Demo assessment source (not real results)";
export const ASSESSMENT_YEARS = [2022, 2023] as const;
export const SUBJECTS = ["ela", "math", "science"] as const;
type Subject = (typeof SUBJECTS)[number];

/** Tested grades per subject, as state programs commonly test them. */
const TESTED_GRADES: Record<Subject, readonly number[]> = {
  ela: [3, 4, 5, 6, 7, 8, 11],
  math: [3, 4, 5, 6, 7, 8, 11],
  science: [5, 8, 11],
};
const SUBJECT_BASE: Record<Subject, readonly [number, number]> = { ela: [38, 54], math: [28, 46], science: [33, 50] };
const gradeLabel = (grade: number): string => String(grade).padStart(2, "0");

/** Grade span of a school for testing purposes: PK -1, KG 0, numeric grades as numbers. */
export function gradeNumber(grade: string | null): number | null {
  if (!grade) return null;
  const value = grade.trim().toUpperCase();
  if (value === "PK") return -1;
  if (value === "KG" || value === "K") return 0;
  const parsed = Number.parseInt(value, 10);
  return Number.isFinite(parsed) ? parsed : null;
}

export const hasTestedGrade = (low: number, high: number): boolean =>
  SUBJECTS.some((subject) => TESTED_GRADES[subject].some((grade) => grade >= low && grade <= high));

export interface AssessmentTarget {
  entity: DemoEntity;
  /** Inclusive grade span; districts test every grade. */
  low: number;
  high: number;
}

export interface AssessmentRows {
  assessment_summaries: DemoRow[];
  assessment_grade_rows: DemoRow[];
  assessment_state_rows: DemoRow[];
}

interface GradeFigures {
  enrolled: number;
  tested: number;
  proficiencyPct: number;
}

/** Counts and percentages that agree with each other: pct is recomputed from the rounded count. */
function gradeFigures(
  enrolled: number,
  participation: number,
  targetPct: number,
  rng: DemoRandom,
): GradeFigures & { testedWithScores: number; proficient: number; participationRate: number } {
  const tested = Math.max(1, Math.round(enrolled * participation));
  const testedWithScores = Math.max(1, tested - rng.int(0, Math.min(2, tested - 1)));
  const proficient = Math.round((testedWithScores * targetPct) / 100);
  return {
    enrolled,
    tested,
    testedWithScores,
    proficient,
    proficiencyPct: round((proficient / testedWithScores) * 100, 1),
    participationRate: round((tested / enrolled) * 100, 1),
  };
}

function figureColumns(f: ReturnType<typeof gradeFigures>, grade: number): DemoRow {
  return {
    student_group_type: "all",
    student_group: "All students",
    student_group_id: "all",
    enrolled_count: f.enrolled,
    tested_count: f.tested,
    tested_with_scores_count: f.testedWithScores,
    proficiency_count: f.proficient,
    proficiency_pct: f.proficiencyPct,
    participation_rate: f.participationRate,
    mean_scale_score: round(2300 + grade * 25 + f.proficiencyPct * 1.5, 1),
    data_quality: "complete",
    suppression_code: null,
    data_source: DEMO_SOURCE,
  };
}

export function buildAssessments(seed: number, targets: readonly AssessmentTarget[]): AssessmentRows {
  const rows: AssessmentRows = { assessment_summaries: [], assessment_grade_rows: [], assessment_state_rows: [] };
  const states = [...new Set(targets.map((target) => target.entity.state))].sort();

  // State rows first: entity figures are drawn around them.
  const statePct = new Map<string, number>();
  for (const state of states) {
    for (const subject of SUBJECTS) {
      for (const grade of TESTED_GRADES[subject]) {
        const base = new DemoRandom(seed, `assessment-state/${state}/${subject}/${grade}`);
        const [lo, hi] = SUBJECT_BASE[subject];
        const pct2022 = base.float(lo, hi);
        const enrolled = base.int(20_000, 90_000);
        for (const year of ASSESSMENT_YEARS) {
          const rng = new DemoRandom(seed, `assessment-state/${state}/${subject}/${grade}/${year}`);
          const target = year === 2022 ? pct2022 : clamp(pct2022 + rng.float(-2.5, 3.5), 5, 95);
          const figures = gradeFigures(Math.round(enrolled * (year === 2022 ? 1 : 0.99)), rng.float(0.95, 0.99), target, rng);
          statePct.set(`${state}/${year}/${subject}/${grade}`, figures.proficiencyPct);
          rows.assessment_state_rows.push({
            id: demoUuid(seed, `assessment-state-row/${state}/${year}/${subject}/${grade}`),
            source_id: DEMO_ASSESSMENT_SOURCE_ID,
            state,
            school_year: year,
            grade: gradeLabel(grade),
            subject,
            ...figureColumns(figures, grade),
          });
        }
      }
    }
  }

  for (const { entity, low, high } of targets) {
    // A school with no tested grade (a K-2 school, say) has no results to report: no summary at all.
    if (!hasTestedGrade(low, high)) continue;
    const rng = new DemoRandom(seed, `assessment/${entity.kind}/${entity.fed_id}`);
    const owner = entity.kind === "district" ? { district_id: entity.id, school_id: null } : { district_id: null, school_id: entity.id };
    const gradesBySubject = Object.fromEntries(
      SUBJECTS.map((subject) => [subject, TESTED_GRADES[subject].filter((g) => g >= low && g <= high)]),
    ) as Record<Subject, number[]>;
    const offsets = Object.fromEntries(SUBJECTS.map((subject) => [subject, rng.float(-14, 14)])) as Record<Subject, number>;
    const span = Math.max(1, high - Math.max(low, 0) + 1);
    const perGrade = Math.max(18, Math.round((entity.size_hint ?? (entity.kind === "district" ? 6500 : 450)) / span));

    for (const year of ASSESSMENT_YEARS) {
      const metrics: Record<string, DemoRow | null> = {};
      const gradeSummary: Record<string, Record<string, number>> = {};
      let gradeRowCount = 0;
      for (const subject of SUBJECTS) {
        const grades = gradesBySubject[subject];
        if (grades.length === 0) {
          metrics[subject] = null;
          continue;
        }
        let enrolledSum = 0;
        let testedSum = 0;
        const entityPcts: number[] = [];
        const statePcts: number[] = [];
        for (const grade of grades) {
          const state = statePct.get(`${entity.state}/${year}/${subject}/${grade}`) as number;
          const figures = gradeFigures(
            Math.max(10, Math.round(perGrade * rng.float(0.9, 1.1))),
            rng.float(0.93, 0.995),
            clamp(state + offsets[subject] + rng.float(-4, 4), 3, 97),
            rng,
          );
          enrolledSum += figures.enrolled;
          testedSum += figures.tested;
          entityPcts.push(figures.proficiencyPct);
          statePcts.push(state);
          (gradeSummary[gradeLabel(grade)] ??= {})[subject] = figures.proficiencyPct;
          gradeRowCount += 1;
          rows.assessment_grade_rows.push({
            id: demoUuid(seed, `assessment-grade-row/${entity.kind}/${entity.fed_id}/${year}/${subject}/${grade}`),
            entity_type: entity.kind,
            ...owner,
            source_id: DEMO_ASSESSMENT_SOURCE_ID,
            state: entity.state,
            school_year: year,
            grade: gradeLabel(grade),
            subject,
            ...figureColumns(figures, grade),
          });
        }
        const proficiency = round(average(entityPcts), 1);
        const stateProficiency = round(average(statePcts), 1);
        metrics[subject] = {
          proficiency_pct: proficiency,
          tested_count: testedSum,
          participation_rate: round((testedSum / enrolledSum) * 100, 1),
          state_proficiency_pct: stateProficiency,
          vs_state_pp: round(proficiency - stateProficiency, 1),
          basis: "grade_average",
        };
      }
      const subjectsAvailable = SUBJECTS.filter((subject) => metrics[subject] !== null);
      const artifactBase = `${DEMO_HOST}/assessments/${entity.state.toLowerCase()}/${year}`;
      rows.assessment_summaries.push({
        id: demoUuid(seed, `assessment-summary/${entity.kind}/${entity.fed_id}/${year}`),
        entity_type: entity.kind,
        ...owner,
        source_id: DEMO_ASSESSMENT_SOURCE_ID,
        state: entity.state,
        school_year: year,
        data_quality: "complete",
        subjects_available: subjectsAvailable,
        metrics,
        ela_proficiency_pct: proficiencyOf(metrics.ela),
        math_proficiency_pct: proficiencyOf(metrics.math),
        science_proficiency_pct: proficiencyOf(metrics.science),
        grade_summary: { demo: true, grades: gradeSummary },
        source_manifest_uri: `${artifactBase}/manifest.json`,
        canonical_artifact_uri: `${artifactBase}/results.csv`,
        coverage: {
          source_id: DEMO_ASSESSMENT_SOURCE_ID,
          source_name: DEMO_ASSESSMENT_SOURCE_NAME,
          publication_status: "demo",
          published_at: `${year}-09-15T00:00:00.000Z`,
          canonical_artifact_uri: `${artifactBase}/results.csv`,
          canonical_artifact_format: "csv",
          manifest_uri: `${artifactBase}/manifest.json`,
          quality_summary: { demo: true, grade_rows: gradeRowCount, suppressed_rows: 0, note: "Invented figures for demonstration only." },
        },
        comparability_warning: "Demo data: invented proficiency figures, not comparable with any real state assessment.",
        data_source: DEMO_SOURCE,
        loaded_at: seededAt(),
      });
    }
  }
  return rows;
}

const average = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

function proficiencyOf(metric: DemoRow | null | undefined): number | null {
  return metric && typeof metric.proficiency_pct === "number" ? metric.proficiency_pct : null;
}
