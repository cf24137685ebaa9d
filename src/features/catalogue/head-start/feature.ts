import { defineFeature } from "../../../graphql/feature";
import { listEndpoints } from "../../../graphql/rest";
import { headStartDictionary } from "./head-start.dictionary";
import { DistrictHeadStartResolver, OperatorHeadStartResolver } from "./head-start-relations.resolver";
import { createHeadStartLoaders } from "./head-start.loaders";
import { HeadStartProgramResolver } from "./head-start.resolver";

/** Head Start programs (GET /head-start-programs ...), District.headStartPrograms and Operator.headStartPrograms. */
export const headStartFeature = defineFeature({
  name: "head-start",
  dictionary: headStartDictionary,
  resolvers: [HeadStartProgramResolver, DistrictHeadStartResolver, OperatorHeadStartResolver],
  loaders: { headStart: createHeadStartLoaders },
  rest: [
    ...listEndpoints("/head-start-programs", "HeadStartPrograms", "head_start_programs"),
    {
      method: "GET",
      path: "/head-start-programs/:id",
      operation: "HeadStartProgram",
      input: "query",
      select: ["head_start_program"],
      wrap: true,
    },
  ],
});
