import { defineFeature } from "../../../graphql/feature";
import { listEndpoints } from "../../../graphql/rest";
import { operatorsDictionary } from "./operator.dictionary";
import { createOperatorLoaders } from "./operator.loaders";
import { OperatorResolver } from "./operator.resolver";

/** Operators of early-childhood programs (GET /operators, /operators/{id}). */
export const operatorsFeature = defineFeature({
  name: "operators",
  dictionary: operatorsDictionary,
  resolvers: [OperatorResolver],
  loaders: { operators: createOperatorLoaders },
  rest: [
    ...listEndpoints("/operators", "Operators", "operators"),
    { method: "GET", path: "/operators/:id", operation: "Operator", input: "query", select: ["operator"], wrap: true },
  ],
});
