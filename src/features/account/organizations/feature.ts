import { defineFeature } from "../../../graphql/feature";
import { organizationsDictionary } from "./organization.dictionary";
import { OrganizationResolver } from "./organization.resolver";

/** The caller's organization: credits and follow slots (GET /org). */
export const organizationsFeature = defineFeature({
  name: "organizations",
  dictionary: organizationsDictionary,
  resolvers: [OrganizationResolver],
  rest: [{ method: "GET", path: "/org", operation: "Organization", input: "none", select: ["organization"] }],
});
