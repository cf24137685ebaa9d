import { defineFeature } from "../../../graphql/feature";
import { FollowResolver } from "./follow.resolver";

/** Follows of the caller's projects (POST /follows, DELETE /follows/{id}, GET /projects/{id}/follows). */
export const followsFeature = defineFeature({ name: "follows", resolvers: [FollowResolver] });
