import { defineFeature } from "../../../graphql/feature";
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
    {
      method: "GET",
      path: "/head-start-programs",
      operation: "HeadStartPrograms",
      input: "query",
      select: ["head_start_programs"],
    },
    {
      method: "POST",
      path: "/head-start-programs",
      operation: "HeadStartPrograms",
      input: "string-body",
      select: ["head_start_programs"],
    },
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
