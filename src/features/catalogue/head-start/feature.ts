import { defineFeature } from "../../../graphql/feature";
import { DistrictHeadStartResolver, OperatorHeadStartResolver } from "./head-start-relations.resolver";
import { createHeadStartLoaders } from "./head-start.loaders";
import { HeadStartProgramResolver } from "./head-start.resolver";

/** Head Start programs (GET /head-start-programs ...), District.headStartPrograms and Operator.headStartPrograms. */
export const headStartFeature = defineFeature({
  name: "head-start",
  resolvers: [HeadStartProgramResolver, DistrictHeadStartResolver, OperatorHeadStartResolver],
  loaders: { headStart: createHeadStartLoaders },
});
