/**
 * THE table of REST endpoints (/api/v1). Each entry names its GraphQL operation
 * (rest-adapter/operations/*.graphql, typed by codegen), its input and its result mapping.
 * Grouped by resource, sorted by path.
 */
import {
  AddListItemsDocument,
  AssociationDocument,
  AssociationsDocument,
  BriefByIdDocument,
  BriefOfPairDocument,
  ChildcareCenterDocument,
  ChildcareCentersDocument,
  ContactDocument,
  ContactsDocument,
  CreateListDocument,
  CreateProjectDocument,
  DistrictByFedIdDocument,
  DistrictDocument,
  DistrictEventsDocument,
  DistrictsDocument,
  FollowDocument,
  HeadStartProgramDocument,
  HeadStartProgramsDocument,
  ListsDocument,
  MetricsDocument,
  OperatorDocument,
  OperatorsDocument,
  OrganizationDocument,
  ProjectFollowsDocument,
  ProjectsDocument,
  PromoteBriefPersonDocument,
  RemoveListItemDocument,
  RequestBriefDocument,
  SchoolByFedIdDocument,
  SchoolDocument,
  SchoolEventsDocument,
  SchoolsDocument,
  UnfollowDocument,
  UnlockDocument,
  UnlockStatusDocument,
  UpdateSchoolDocument,
} from "./generated/operations";
import { HTTP_DICTIONARY } from "../src/graphql/dictionary/http";
import { route, type RouteSpec } from "./route";

export const routes: RouteSpec[] = [
  // associations (the detail carries people and sections)
  route({ method: "GET", path: "/associations", document: AssociationsDocument, input: "query", select: ["associations"] }),
  route({ method: "POST", path: "/associations", document: AssociationsDocument, input: "string-body", select: ["associations"] }),
  route({ method: "GET", path: "/associations/:id", document: AssociationDocument, input: "query", select: ["association"], wrap: true }),
  // deep-research briefs of a project's district or school (docs/briefs.md): POST answers 202 when it starts a build,
  // 200 when it reuses a ready brief or the build in flight; both reads answer { brief }
  route({
    method: "POST",
    path: "/briefs",
    document: RequestBriefDocument,
    input: "json-body",
    select: ["request_brief"],
    respond: (payload) => ({ status: payload.started ? 202 : 200, body: payload }),
    responses: {
      202: { description: "A build started; poll the URL in poll.", body: { select: [] } },
      200: { description: "The ready brief, or the build already in flight, of the pair (no second build).", body: { select: [] } },
    },
    errors: ["FORBIDDEN"],
  }),
  route({ method: "GET", path: "/briefs", document: BriefOfPairDocument, input: "query", select: [] }),
  route({
    method: "GET",
    path: "/briefs/:brief_id",
    document: BriefByIdDocument,
    input: "none",
    select: ["brief_by_id"],
    respond: (brief) => ({ status: 200, body: { brief } }),
    responses: {
      200: {
        description: "The brief (the poll URL of POST /briefs).",
        body: { object: { brief: { select: [] } }, descriptions: { brief: HTTP_DICTIONARY.BriefPollResponse.brief } },
      },
    },
  }),
  route({
    method: "POST",
    path: "/briefs/:brief_id/people/:person_key/promote",
    document: PromoteBriefPersonDocument,
    input: "none",
    select: ["promote_brief_person"],
    respond: (payload) => ({ status: payload.created ? 201 : 200, body: { data: payload.contact } }),
    responses: {
      201: { description: "The person is now a contact record of the organization.", body: { select: ["contact"], wrap: true } },
      200: {
        description: "The person was promoted before: the same record (linked now if the catalogue lists the person).",
        body: { select: ["contact"], wrap: true },
      },
    },
  }),
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
  // contacts (the response adds _access_summary beside data and pagination)
  route({ method: "GET", path: "/contacts", document: ContactsDocument, input: "query", select: ["contacts"] }),
  route({ method: "POST", path: "/contacts", document: ContactsDocument, input: "string-body", select: ["contacts"] }),
  route({ method: "GET", path: "/contacts/:id", document: ContactDocument, input: "query", select: ["contact"], wrap: true }),
  // districts
  route({ method: "GET", path: "/districts", document: DistrictsDocument, input: "query", select: ["districts"] }),
  route({ method: "POST", path: "/districts", document: DistrictsDocument, input: "string-body", select: ["districts"] }),
  route({ method: "GET", path: "/districts/:id", document: DistrictDocument, input: "query", select: ["district"], wrap: true }),
  route({
    method: "GET",
    path: "/districts/by-fed-id/:fed_id",
    document: DistrictByFedIdDocument,
    input: "query",
    select: ["district_by_fed_id"],
    wrap: true,
  }),
  route({
    method: "GET",
    path: "/districts/:id/events",
    document: DistrictEventsDocument,
    input: "none",
    select: ["district_events"],
    wrap: true,
  }),
  // follows of the caller's projects: POST answers 201 when it creates the follow, 200 when the project already follows the entity
  route({
    method: "POST",
    path: "/follows",
    document: FollowDocument,
    input: "json-body",
    select: ["follow"],
    respond: (payload) => ({ status: payload.created ? 201 : 200, body: { data: payload.follow } }),
    responses: {
      201: { description: "The project now follows the entity.", body: { select: ["follow"], wrap: true } },
      200: { description: "The project already followed the entity.", body: { select: ["follow"], wrap: true } },
    },
    errors: ["FOLLOW_LIMIT"],
  }),
  route({ method: "DELETE", path: "/follows/:id", document: UnfollowDocument, input: "none", select: ["unfollow"], wrap: true }),
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
  // lists of the caller's organization (POST creates: 201; DELETE of an item: 204, no body)
  route({ method: "GET", path: "/lists", document: ListsDocument, input: "none", select: ["lists"], wrap: true }),
  route({
    method: "POST",
    path: "/lists",
    document: CreateListDocument,
    input: "json-body",
    select: ["create_list"],
    wrap: true,
    status: 201,
  }),
  route({
    method: "POST",
    path: "/lists/:id/items",
    document: AddListItemsDocument,
    input: "json-body",
    select: ["add_list_items"],
    wrap: true,
  }),
  route({
    method: "DELETE",
    path: "/lists/:id/items/:entity_id",
    document: RemoveListItemDocument,
    input: "none",
    select: ["remove_list_item"],
    status: 204,
  }),
  // metrics catalogue
  route({ method: "GET", path: "/metrics", document: MetricsDocument, input: "query", select: ["metrics"], wrap: true }),
  // operators
  route({ method: "GET", path: "/operators", document: OperatorsDocument, input: "query", select: ["operators"] }),
  route({ method: "POST", path: "/operators", document: OperatorsDocument, input: "string-body", select: ["operators"] }),
  route({ method: "GET", path: "/operators/:id", document: OperatorDocument, input: "query", select: ["operator"], wrap: true }),
  // the caller's organization
  route({ method: "GET", path: "/org", document: OrganizationDocument, input: "none", select: ["organization"] }),
  // projects of the caller's organization
  route({ method: "GET", path: "/projects", document: ProjectsDocument, input: "none", select: ["projects"], wrap: true }),
  route({
    method: "POST",
    path: "/projects",
    document: CreateProjectDocument,
    input: "json-body",
    select: ["create_project"],
    wrap: true,
    status: 201,
  }),
  route({
    method: "GET",
    path: "/projects/:id/follows",
    document: ProjectFollowsDocument,
    input: "query",
    select: ["project_follows"],
  }),
  // schools
  route({ method: "GET", path: "/schools", document: SchoolsDocument, input: "query", select: ["schools"] }),
  route({ method: "POST", path: "/schools", document: SchoolsDocument, input: "string-body", select: ["schools"] }),
  route({ method: "GET", path: "/schools/:id", document: SchoolDocument, input: "query", select: ["school"], wrap: true }),
  route({
    method: "GET",
    path: "/schools/by-fed-id/:fed_id",
    document: SchoolByFedIdDocument,
    input: "query",
    select: ["school_by_fed_id"],
    wrap: true,
  }),
  route({
    method: "PATCH",
    path: "/schools/:id",
    document: UpdateSchoolDocument,
    input: "json-body",
    select: ["update_school"],
    wrap: true,
    errors: ["FORBIDDEN", "CONFLICT"],
  }),
  route({
    method: "GET",
    path: "/schools/:id/events",
    document: SchoolEventsDocument,
    input: "none",
    select: ["school_events"],
    wrap: true,
  }),
  // unlock: 200 or 202 by outcome; a batch is 200 { results }, each item its result or its error body
  route({
    method: "POST",
    path: "/unlock",
    document: UnlockDocument,
    input: "json-body",
    select: ["unlock"],
    headers: { "idempotency-key": "idempotencyKey" },
    respond: (payload) => ({
      status: payload.status_code as number,
      body: payload.results ? { results: (payload.results as Record<string, unknown>[]).map(batchItemBody) } : payload.result,
    }),
    responses: {
      200: {
        description: "Unlocked (or already unlocked); a batch answers each item's result or error body.",
        body: {
          oneOf: [
            { select: ["result"] },
            {
              object: { results: { items: { oneOf: [{ select: ["results", "result"] }, { error: true }] } } },
              descriptions: { results: HTTP_DICTIONARY.UnlockBatchResponse.results },
            },
          ],
        },
      },
      202: {
        description: "Accepted: credits held while the extraction runs; poll GET /unlock-status/{entityType}/{entityId}.",
        body: { select: ["result"] },
      },
    },
    errors: ["INSUFFICIENT_CREDITS", "PARENT_ENTITY_LOCKED", "CONFLICT"],
  }),
  route({
    method: "GET",
    path: "/unlock-status/:entityType/:entityId",
    document: UnlockStatusDocument,
    input: "none",
    select: ["unlock_status"],
  }),
];

/** A batch item as REST answers it: the single unlock's body, or its error body (generic fields + the present extras). */
function batchItemBody(item: Record<string, unknown>): unknown {
  if (item.result) return item.result;
  const error = Object.fromEntries(Object.entries(item.error as Record<string, unknown>).filter(([, v]) => v !== null));
  return { ...error, statusCode: item.status_code };
}
