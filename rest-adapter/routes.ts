/**
 * THE table of REST endpoints (/api/v1). Each entry names its GraphQL operation
 * (rest-adapter/operations/*.graphql, typed by codegen), its input and its result mapping.
 * Grouped by resource, sorted by path.
 */
import { DistrictDocument, DistrictsDocument } from "./generated/operations";
import { route, type RouteSpec } from "./route";

export const routes: RouteSpec[] = [
  // districts
  route({ method: "GET", path: "/districts", document: DistrictsDocument, input: "query", select: ["districts"] }),
  route({ method: "POST", path: "/districts", document: DistrictsDocument, input: "string-body", select: ["districts"] }),
  route({ method: "GET", path: "/districts/:id", document: DistrictDocument, input: "query", select: ["district"], wrap: true }),
];
