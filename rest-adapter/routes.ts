/**
 * THE table of REST endpoints (/api/v1). Each entry names its GraphQL operation
 * (rest-adapter/operations/*.graphql, typed by codegen), its input and its result mapping.
 * Grouped by resource, sorted by path.
 */
import {
  ChildcareCenterDocument,
  ChildcareCentersDocument,
  DistrictDocument,
  DistrictEventsDocument,
  DistrictsDocument,
  HeadStartProgramDocument,
  HeadStartProgramsDocument,
  MetricsDocument,
  OperatorDocument,
  OperatorsDocument,
  SchoolDocument,
  SchoolEventsDocument,
  SchoolsDocument,
  UpdateSchoolDocument,
} from "./generated/operations";
import { route, type RouteSpec } from "./route";

export const routes: RouteSpec[] = [
  // childcare centers (the detail carries people)
  route({ method: "GET", path: "/childcare-centers", document: ChildcareCentersDocument, input: "query", select: ["childcare_centers"] }),
  route({
    method: "POST",
    path: "/childcare-centers",
    document: ChildcareCentersDocument,
    input: "string-body",
    select: ["childcare_centers"],
  }),
  route({
    method: "GET",
    path: "/childcare-centers/:id",
    document: ChildcareCenterDocument,
    input: "query",
    select: ["childcare_center"],
    wrap: true,
  }),
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
  // Head Start programs
  route({
    method: "GET",
    path: "/head-start-programs",
    document: HeadStartProgramsDocument,
    input: "query",
    select: ["head_start_programs"],
  }),
  route({
    method: "POST",
    path: "/head-start-programs",
    document: HeadStartProgramsDocument,
    input: "string-body",
    select: ["head_start_programs"],
  }),
  route({
    method: "GET",
    path: "/head-start-programs/:id",
    document: HeadStartProgramDocument,
    input: "query",
    select: ["head_start_program"],
    wrap: true,
  }),
  // metrics catalogue
  route({ method: "GET", path: "/metrics", document: MetricsDocument, input: "query", select: ["metrics"], wrap: true }),
  // operators
  route({ method: "GET", path: "/operators", document: OperatorsDocument, input: "query", select: ["operators"] }),
  route({ method: "POST", path: "/operators", document: OperatorsDocument, input: "string-body", select: ["operators"] }),
  route({ method: "GET", path: "/operators/:id", document: OperatorDocument, input: "query", select: ["operator"], wrap: true }),
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
