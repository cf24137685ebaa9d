import { defineFeature } from "../../../graphql/feature";
import { ListResolver } from "./list.resolver";

/** The caller's lists of districts, schools or contacts (GET/POST /lists, items). */
export const listsFeature = defineFeature({ name: "lists", resolvers: [ListResolver] });
