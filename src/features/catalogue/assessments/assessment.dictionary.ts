/** Field dictionary: assessment summaries and rows. */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";

const DATA_SOURCE =
  'Where the figures come from: "demo" for demo rows (invented results, written only in states without real assessment rows; docs/demo-data.md), else the loader\'s source name.';

const ROW = {
  dataSource: DATA_SOURCE,
  sourceId: "Id of the assessment source (demo rows: demo-assessment).",
  state: "Two-letter state abbreviation.",
  schoolYear: "School year as the fall year it starts in (2023 = 2023-24).",
  grade: "Tested grade, as the source labels it.",
  subject: "Tested subject: ela, math or science.",
  studentGroupType: "Kind of student group, e.g. all.",
  studentGroup: "Student group name, e.g. All students.",
  studentGroupId: "Id of the student group in the source.",
  enrolledCount: "Students enrolled in the tested grade (persons).",
  testedCount: "Students tested (persons).",
  testedWithScoresCount: "Students tested with a valid score (persons).",
  proficiencyCount: "Students scoring proficient or above (persons).",
  proficiencyPct: "Proficient or above as a percent (0-100) of students tested with scores.",
  participationRate: "Tested as a percent (0-100) of enrolled.",
  meanScaleScore: "Mean scale score (the state test's own scale).",
  dataQuality: "The source's data-quality mark, e.g. complete.",
  suppressionCode: "Why a value is suppressed, when the source suppressed it (small groups); null otherwise.",
};

export const assessmentsDictionary: Dictionary = {
  AssessmentGradeRow: {
    [TYPE]: "One assessment result of a district or school (year, grade, subject, student group).",
    ...ROW,
    id: "Our id of the row (UUID).",
  },
  AssessmentStateRow: {
    [TYPE]: "One state-level assessment result (state, year, grade, subject, student group).",
    ...ROW,
  },
  AssessmentMetric: {
    [TYPE]: "One subject's figures in an assessment summary.",
    proficiencyPct: "Average of the entity's grade-row proficiency percents (0-100).",
    testedCount: "Students tested, summed over grades (persons).",
    participationRate: "Tested / enrolled, as a percent (0-100).",
    stateProficiencyPct: "The state rows' average proficiency percent (0-100) over the same grades and year.",
    vsStatePp: "proficiency_pct minus state_proficiency_pct, in percentage points.",
    basis: "How the figures were combined, e.g. grade_average.",
  },
  AssessmentMetrics: {
    [TYPE]: "Summary figures per subject; null for a subject the source does not test.",
    ela: "English language arts.",
    math: "Mathematics.",
    science: "Science.",
  },
  AssessmentSummary: {
    [TYPE]: "The latest assessment summary of a district or school (highest school_year).",
    dataSource: DATA_SOURCE,
    sourceId: "Id of the assessment source.",
    state: "Two-letter state abbreviation.",
    schoolYear: "School year as the fall year it starts in (2023 = 2023-24).",
    subjectsAvailable: "Subjects the source tested for this entity (ela, math, science).",
    metrics: "Figures per subject.",
    gradeSummary:
      "Per-grade figures as a JSON object, as the source gives them (demo rows: grades -> grade -> subject -> proficiency percent 0-100).",
    sourceManifestUri: "Manifest of the source publication.",
    canonicalArtifactUri: "The source publication's canonical file.",
    coverage: "Where the summary comes from and how complete that source is.",
    comparabilityWarning: "Why figures may not compare across states or years (demo: says the figures are invented).",
    dataQuality: "The source's data-quality mark, e.g. complete.",
  },
  AssessmentCoverage: {
    [TYPE]: "Where an assessment summary comes from and how complete that source is.",
    sourceId: "Id of the assessment source.",
    sourceName:
      "Name of the source (demo rows: 'Demo assessment source (not real results)'). No real assessment file is loaded here; the demo layer writes these in states without real rows.",
    publicationStatus: "Publication status of the source's release (demo rows: demo).",
    publishedAt: "When the source published the release (as given by the source).",
    canonicalArtifactUri: "The source publication's canonical file.",
    canonicalArtifactFormat: "Format of that file, as the source names it.",
    manifestUri: "Manifest of the source publication.",
    qualitySummary: "The source's data-quality summary as a JSON object.",
  },
};
