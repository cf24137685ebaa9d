/** Field dictionary: deep-research briefs and the contact records promoted from their people (docs/briefs.md). */
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";

export const briefsDictionary: Dictionary = {
  BriefEntityType: {
    [TYPE]: "What a brief is about.",
    district: "A district.",
    school: "A school.",
  },
  BriefStatus: {
    [TYPE]: "Where a brief's build stands (spec Brief state table).",
    building: "The build job is running or queued; poll the brief.",
    ready: "The dossier is built; a new request reuses it.",
    failed: "The build failed (error says why), or stayed in building over 60 minutes; a new request starts it again.",
  },
  Brief: {
    [TYPE]:
      "A deep-research brief of one (project, district or school) pair: GET /briefs?project_id=&entity_type=&entity_id= and the poll URL GET /briefs/{brief_id} answer { brief }.",
    briefId: "Our id of the brief (UUID).",
    projectId: "The project of the caller's organization the brief belongs to.",
    entityType: "district or school.",
    entityId: "Our id of the district or school.",
    status: "building, ready or failed; a build in building for over 60 minutes is reported failed.",
    dossier:
      "The built dossier (null until ready): entity, profile, statistics (yearly trend, enrollment change), finance (districts), people (person_key, name, title, roles, contact_id), findings (vendors, bids, priorities, pain points, funding, contracts with source_url; withheld unless the organization had unlocked the entity when it was built), events, narrative (provider; language_model_used false for the default extractive text) and data_source (per section, with demo_sections). Layout: docs/briefs.md.",
    error: "Why the build failed; null otherwise.",
    startedAt: "When the current build started (UTC).",
    finishedAt: "When the current build finished (UTC); null while building.",
  },
  BriefRequestInput: {
    [TYPE]: "POST /briefs body.",
    projectId: "A project of the caller's organization.",
    entityType: "district or school.",
    entityId: "Our id of the district or school.",
  },
  BriefRequestOutcome: {
    [TYPE]: "The answer of POST /briefs (202 when it started a build, 200 when it reused one).",
    briefId: "Our id of the pair's brief (UUID).",
    status: "building, or ready when a ready brief was reused.",
    started: "true when this request started a build; false when a ready brief was reused or a build is already in flight.",
    poll: "The URL to poll for the brief: /api/v1/briefs/{brief_id}.",
  },
  PromotedContact: {
    [TYPE]:
      "The organization's contact record made from a brief's person: a reference to the brief entry (never its prose), linked to the catalogue contact when the catalogue has the person, else unlinked.",
    id: "Our id of the contact record (UUID).",
    briefId: "The brief the person was promoted from.",
    personKey: "The person's key in the brief's dossier (people[].person_key), stable across rebuilds of briefs of that entity.",
    projectId: "The brief's project.",
    entityType: "district or school the person belongs to.",
    entityId: "Our id of the district or school.",
    name: "The person's name as the brief lists it.",
    title: "The person's title as the brief lists it.",
    contactId: "The linked catalogue contact (GET /contacts/{id}); null for an unlinked record.",
    linked:
      "true when linked to a catalogue contact; false for an unlinked record, which a later promote links once the catalogue lists the person.",
    briefReference: "The brief entry referred to: { brief_id, person_key, section }.",
    linkedAt: "When the record was linked to its catalogue contact (UTC).",
    createdAt: "When the record was created (UTC).",
    updatedAt: "When the record last changed (UTC).",
    contact: "The linked catalogue contact as GET /contacts/{id} serves it (gated fields null until unlocked); null when unlinked.",
  },
  PromoteOutcome: {
    [TYPE]: "The answer of promoting a brief's person (201 created, 200 the record already existed).",
    created: "true when this call created the record.",
    contact: "The contact record.",
  },
  Query: {
    brief: "The brief of a (project, entity) pair; null when the pair never had a build (GET /api/v1/briefs).",
    "brief(projectId)": "A project of the caller's organization.",
    "brief(entityType)": "district or school.",
    "brief(entityId)": "Our id of the district or school.",
    briefById: "One brief of the caller's organization by id: the poll URL (GET /api/v1/briefs/{brief_id}); null when unknown.",
    "briefById(briefId)": "Our id of the brief.",
  },
  Mutation: {
    requestBrief:
      "Requests the brief of a (project, entity) pair, idempotently (POST /api/v1/briefs): starts a build, reuses a ready brief or the build in flight. Free and pro plans must follow the entity in the project first (forbidden otherwise).",
    "requestBrief(input)": "The project and the district or school.",
    promoteBriefPerson:
      "Promotes a person of a ready brief to the organization's contact record (POST /api/v1/briefs/{briefId}/people/{personKey}/promote).",
    "promoteBriefPerson(briefId)": "Our id of the brief.",
    "promoteBriefPerson(personKey)": "The person's key in the dossier (people[].person_key).",
  },
};
