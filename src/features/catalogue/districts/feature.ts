import { defineFeature } from "../../../graphql/feature";
import { districtsDictionary } from "./district.dictionary";
import { createDistrictLoaders } from "./district.loaders";
import { DistrictResolver } from "./district.resolver";

/** Districts: GET /districts, /districts/{id}, /districts/by-fed-id/{fed_id}. */
export const districtsFeature = defineFeature({
  name: "districts",
  resolvers: [DistrictResolver],
  loaders: { districts: createDistrictLoaders },
  dictionary: districtsDictionary,
});
