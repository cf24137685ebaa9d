import type { Db } from "../db/client";
import type { Viewer } from "../features/auth/viewer";
import { createDistrictLoaders } from "../features/districts/district.loaders";
import { createSchoolLoaders } from "../features/schools/school.loaders";

/** Every feature's loaders, created fresh for each request (never shared across requests). */
export function createLoaders(db: Db, viewer: Viewer) {
  return {
    districts: createDistrictLoaders(db, viewer),
    schools: createSchoolLoaders(db, viewer),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
