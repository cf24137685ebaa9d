import type { Db } from "../db/client";
import type { Viewer } from "../features/auth/viewer";
import { createDistrictLoaders } from "../features/districts/district.loaders";
import { createSchoolLoaders } from "../features/schools/school.loaders";
import { createAssessmentLoaders } from "../features/assessments/assessment.loaders";
import { createEventLoaders } from "../features/events/event.service";
import { createIntelligenceLoaders } from "../features/intelligence/intelligence.loaders";
import { createSpecialEducationLoaders } from "../features/special-education/special-education.loaders";
import { createOperatorLoaders } from "../features/operators/operator.loaders";
import { createHeadStartLoaders } from "../features/head-start/head-start.loaders";
import { createChildcareLoaders } from "../features/childcare/childcare.loaders";

/** Every feature's loaders, created fresh for each request (never shared across requests). */
export function createLoaders(db: Db, viewer: Viewer) {
  return {
    districts: createDistrictLoaders(db, viewer),
    schools: createSchoolLoaders(db, viewer),
    assessments: createAssessmentLoaders(db),
    specialEducation: createSpecialEducationLoaders(db),
    intelligence: createIntelligenceLoaders(db, viewer),
    events: createEventLoaders(db),
    operators: createOperatorLoaders(db),
    headStart: createHeadStartLoaders(db),
    childcare: createChildcareLoaders(db),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
