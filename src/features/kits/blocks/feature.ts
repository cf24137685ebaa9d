import { defineFeature } from "../../../graphql/feature";
import { createBlockLoaders } from "./block.loaders";
import { blockResolvers } from "./block.resolver";

/** The blocks kit: the field resolvers and loaders of every installed feature's blocks. */
export const blocksFeature = defineFeature({
  name: "blocks",
  // A getter: the resolvers follow from the installed blocks (read when the schema is built, after the install).
  get resolvers() {
    return blockResolvers();
  },
  loaders: { blocks: createBlockLoaders },
});
