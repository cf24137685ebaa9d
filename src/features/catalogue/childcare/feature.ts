import { defineFeature } from "../../../graphql/feature";
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
    { method: "GET", path: "/childcare-centers", operation: "ChildcareCenters", input: "query", select: ["childcare_centers"] },
    {
      method: "POST",
      path: "/childcare-centers",
      operation: "ChildcareCenters",
      input: "string-body",
      select: ["childcare_centers"],
    },
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
