import { defineFeature } from "../../../graphql/feature";
import { createChildcareLoaders } from "./childcare.loaders";
import { ChildcareCenterResolver } from "./childcare.resolver";
import { OperatorChildcareResolver } from "./operator-childcare.resolver";

/** Licensed childcare centers (GET /childcare-centers ...) and Operator.childcareCenters. */
export const childcareFeature = defineFeature({
  name: "childcare",
  resolvers: [ChildcareCenterResolver, OperatorChildcareResolver],
  loaders: { childcare: createChildcareLoaders },
});
