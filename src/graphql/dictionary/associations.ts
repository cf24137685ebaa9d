/** Field dictionary: associations (docs/associations.md). Every association row loaded today is demo data. */
import { listArgs, orderEnum, page, SOURCES } from "./common";
import { TYPE, type Dictionary } from "./dictionary";

export const associationsDictionary: Dictionary = {
  Association: {
    [TYPE]: `A state education association (athletic, activities, superintendents', school boards', principals') or a section under one. Served whole on every plan. ${SOURCES.demo} (no real association file is loaded; names contain 'Demo').`,
    id: "Our id of the association (UUID).",
    slug: "Readable unique key.",
    name: "Association name.",
    shortName: "Short name or acronym.",
    state: "Two-letter state abbreviation.",
    parentAssociationName: "The parent association's name; null for a top-level body.",
    websiteUrl: "Website.",
    phone: "Phone.",
    physicalAddress: "Street address.",
    physicalCity: "City.",
    physicalZip: "ZIP code.",
    memberSchoolCount: "Member schools (count), when known.",
    memberCountSourceUrl: "Where the member count was read.",
    sourceUrl: "Where the record was read.",
    verifiedAt: "When the record was last verified against its source (UTC); null when never.",
    createdAt: "When the record was first stored (UTC).",
    updatedAt: "When the record last changed (UTC).",
  },
  AssociationFilter: {
    [TYPE]: "Filters of the association list (GET /associations); every given filter must hold.",
    kind: "Any of these kinds.",
    ids: "Our association ids (UUID).",
  },
  AssociationKind: {
    [TYPE]: "What kind of body an association is.",
    state_athletic_association: "State high school athletic association.",
    state_activities_association: "State activities association.",
    superintendents_association: "State superintendents' association.",
    school_boards_association: "State school boards association.",
    principals_association: "State principals' association.",
    other: "Any other body, e.g. a section of an athletic association.",
  },
  AssociationOrderField: orderEnum("associations", {
    name: "Association name.",
    state: "State abbreviation.",
    member_school_count: "Member schools.",
    created_at: "When the record was first stored.",
  }),
  AssociationPage: page("associations", "GET /associations"),
  AssociationPerson: {
    id: "Our id of the person (UUID).",
    title: "The seat or job title.",
    redacted: "true when the seat's holder is not published (name is '[redacted]').",
  },
  Query: {
    ...listArgs("associations", "associations", { defaultOrder: "name" }),
    "association(id)": "Our association id (UUID).",
  },
};
