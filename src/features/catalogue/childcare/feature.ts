import { defineFeature } from "../../../graphql/feature";
import { listEndpoints } from "../../../graphql/rest";
import { childcareDictionary } from "./childcare.dictionary";
import { createChildcareLoaders } from "./childcare.loaders";
import { ChildcareCenterResolver } from "./childcare.resolver";
import { OperatorChildcareResolver } from "./operator-childcare.resolver";

/** Licensed childcare centers (GET /childcare-centers ...) and Operator.childcareCenters. */
export const childcareFeature = defineFeature({
  name: "childcare",
  dictionary: childcareDictionary,
  resolvers: [ChildcareCenterResolver, OperatorChildcareResolver],
  loaders: { childcare: createChildcareLoaders },
  rest: [
    ...listEndpoints("/childcare-centers", "ChildcareCenters", "childcare_centers"),
    {
      method: "GET",
      path: "/childcare-centers/:id",
      operation: "ChildcareCenter",
      input: "query",
      select: ["childcare_center"],
      wrap: true,
    },
  ],
});
