import { defineFeature } from "../../../graphql/feature";
import { followsDictionary } from "./follow.dictionary";
import { FollowResolver } from "./follow.resolver";

/** Follows of the caller's projects (POST /follows, DELETE /follows/{id}, GET /projects/{id}/follows). */
export const followsFeature = defineFeature({
  name: "follows",
  dictionary: followsDictionary,
  resolvers: [FollowResolver],
  rest: [
    {
      method: "POST",
      path: "/follows",
      operation: "Follow",
      input: "json-body",
      select: ["follow"],
      respond: (payload) => ({ status: payload.created ? 201 : 200, body: { data: payload.follow } }),
      responses: {
        201: { description: "The project now follows the entity.", body: { select: ["follow"], wrap: true } },
        200: { description: "The project already followed the entity.", body: { select: ["follow"], wrap: true } },
      },
      errors: ["FOLLOW_LIMIT"],
    },
    { method: "DELETE", path: "/follows/:id", operation: "Unfollow", input: "none", select: ["unfollow"], wrap: true },
    {
      method: "GET",
      path: "/projects/:id/follows",
      operation: "ProjectFollows",
      input: "query",
      select: ["project_follows"],
    },
  ],
});
