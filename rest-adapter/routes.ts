/**
 * THE table of REST endpoints (/api/v1). Each entry names its GraphQL operation
 * (rest-adapter/operations/*.graphql, typed by codegen), its input and its result mapping.
 * Grouped by resource, sorted by path.
 */
import { DistrictDocument, DistrictsDocument, SchoolDocument, SchoolsDocument, UpdateSchoolDocument } from "./generated/operations";
import { route, type RouteSpec } from "./route";

export const routes: RouteSpec[] = [
  // districts
  route({ method: "GET", path: "/districts", document: DistrictsDocument, input: "query", select: ["districts"] }),
  route({ method: "POST", path: "/districts", document: DistrictsDocument, input: "string-body", select: ["districts"] }),
  route({ method: "GET", path: "/districts/:id", document: DistrictDocument, input: "query", select: ["district"], wrap: true }),
  // schools
  route({ method: "GET", path: "/schools", document: SchoolsDocument, input: "query", select: ["schools"] }),
  route({ method: "POST", path: "/schools", document: SchoolsDocument, input: "string-body", select: ["schools"] }),
  route({ method: "GET", path: "/schools/:id", document: SchoolDocument, input: "query", select: ["school"], wrap: true }),
  route({ method: "PATCH", path: "/schools/:id", document: UpdateSchoolDocument, input: "json-body", select: ["update_school"], wrap: true }),
];
