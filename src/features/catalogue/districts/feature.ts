import { defineFeature } from "../../../graphql/feature";
import { districtRecords } from "./district.mcp";
import { listEndpoints } from "../../../graphql/rest";
import { strategicPrioritiesDataSourceBlock } from "./district.blocks";
import { districtsDictionary } from "./district.dictionary";
import { createDistrictLoaders } from "./district.loaders";
import { DistrictResolver } from "./district.resolver";

/** Districts: GET /districts, /districts/{id}, /districts/by-fed-id/{fed_id}. */
export const districtsFeature = defineFeature({
  name: "districts",
  resolvers: [DistrictResolver],
  loaders: { districts: createDistrictLoaders },
  blocks: [strategicPrioritiesDataSourceBlock],
  dictionary: districtsDictionary,
  rest: [
    ...listEndpoints("/districts", "Districts", "districts"),
    { method: "GET", path: "/districts/:id", operation: "District", input: "query", select: ["district"], wrap: true },
    {
      method: "GET",
      path: "/districts/by-fed-id/:fed_id",
      operation: "DistrictByFedId",
      input: "query",
      select: ["district_by_fed_id"],
      wrap: true,
    },
  ],
  mcpRecord: districtRecords,
});
