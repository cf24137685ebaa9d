/**
 * THE table of REST endpoints (/api/v1). Each entry names its GraphQL operation
 * (rest-adapter/operations/*.graphql, typed by codegen), its input and its result mapping.
 * Grouped by resource, sorted by path.
 */
import {
  DistrictDocument,
  DistrictEventsDocument,
  DistrictsDocument,
  MetricsDocument,
  SchoolDocument,
  SchoolEventsDocument,
  SchoolsDocument,
  UpdateSchoolDocument,
} from "./generated/operations";
import { route, type RouteSpec } from "./route";

export const routes: RouteSpec[] = [
  // districts
  route({ method: "GET", path: "/districts", document: DistrictsDocument, input: "query", select: ["districts"] }),
  route({ method: "POST", path: "/districts", document: DistrictsDocument, input: "string-body", select: ["districts"] }),
  route({ method: "GET", path: "/districts/:id", document: DistrictDocument, input: "query", select: ["district"], wrap: true }),
  route({
    method: "GET",
    path: "/districts/:id/events",
    document: DistrictEventsDocument,
    input: "none",
    select: ["district_events"],
    wrap: true,
  }),
  // metrics catalogue
  route({ method: "GET", path: "/metrics", document: MetricsDocument, input: "query", select: ["metrics"], wrap: true }),
  // schools
  route({ method: "GET", path: "/schools", document: SchoolsDocument, input: "query", select: ["schools"] }),
  route({ method: "POST", path: "/schools", document: SchoolsDocument, input: "string-body", select: ["schools"] }),
  route({ method: "GET", path: "/schools/:id", document: SchoolDocument, input: "query", select: ["school"], wrap: true }),
  route({
    method: "PATCH",
    path: "/schools/:id",
    document: UpdateSchoolDocument,
    input: "json-body",
    select: ["update_school"],
    wrap: true,
  }),
  route({
    method: "GET",
    path: "/schools/:id/events",
    document: SchoolEventsDocument,
    input: "none",
    select: ["school_events"],
    wrap: true,
  }),
];
