import { defineFeature } from "../../../graphql/feature";
import { listEndpoints } from "../../../graphql/rest";
import { associationsDictionary } from "./association.dictionary";
import { createAssociationLoaders } from "./association.loaders";
import { AssociationResolver } from "./association.resolver";

/** Associations with their sections and people (GET /associations ...). */
export const associationsFeature = defineFeature({
  name: "associations",
  resolvers: [AssociationResolver],
  loaders: { associations: createAssociationLoaders },
  dictionary: associationsDictionary,
  rest: [
    ...listEndpoints("/associations", "Associations", "associations"),
    { method: "GET", path: "/associations/:id", operation: "Association", input: "query", select: ["association"], wrap: true },
  ],
});
