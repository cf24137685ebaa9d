import { defineFeature } from "../../../graphql/feature";
import { workspaceDictionary } from "../../../graphql/dictionary/workspace";
import { OrganizationResolver } from "./organization.resolver";

/** The caller's organization: credits and follow slots (GET /org). */
export const organizationsFeature = defineFeature({
  name: "organizations",
  resolvers: [OrganizationResolver],
  dictionary: workspaceDictionary,
  rest: [{ method: "GET", path: "/org", operation: "Organization", input: "none", select: ["organization"] }],
});
