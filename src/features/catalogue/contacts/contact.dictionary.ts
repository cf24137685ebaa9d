/** Field dictionary: contacts (docs/contacts.md). */
import { limitArg, listArgs, SOURCES } from "../../../graphql/dictionary/common";
import { TYPE, type Dictionary } from "../../../graphql/dictionary/dictionary";
import { CONTACT_LIST } from "./contact.inputs";

/** Contact fields revealed only by unlocking the contact (contract section 4, docs/contacts.md). */
const CONTACT_GATED =
  "Gated: null until the caller's organization unlocks this contact (2 credits; POST /unlock refuses it with PARENT_ENTITY_LOCKED until the parent district or school is unlocked).";

export const contactsDictionary: Dictionary = {
  Contact: {
    [TYPE]: `A person at a district or school, listed once the parent went through extraction; email, phone, linkedinUrl, profileSummary and keyFacts are gated until the caller's organization unlocks the contact (2 credits). ${SOURCES.extraction} Demo people are fictional.`,
    id: "Our id of the contact (UUID); a duplicate person keeps its own id.",
    districtId: "Our id of the contact's district (school-level contacts carry their school's district).",
    schoolId: "Our id of the contact's school; null for a district-level contact.",
    associationId: "Our id of the association the contact belongs to, when any.",
    headStartProgramId: "Our id of the Head Start program the contact belongs to, when any.",
    childcareCenterId: "Our id of the childcare center the contact belongs to, when any.",
    name: "The person's full name as found (demo people are fictional).",
    title: "Job title as found, e.g. Superintendent, Director of Technology, Principal.",
    state: "Two-letter state abbreviation of the parent.",
    source: "Which source or pipeline found the contact (demo for the demo layer).",
    sourceUrl: "The page the contact was found on.",
    enrichedAt: "When enrichment completed (UTC).",
    enrichmentError: "Why enrichment failed; null unless enrichmentStatus is error.",
    enrichmentRetryCount: "Enrichment retries made (count).",
    qualificationScore: "How well the person fits as a buyer, higher is better (demo rows: generated, 35-98).",
    qualificationJustification: "Why the contact got its qualification score.",
    qualifiedAt: "When the contact was scored (UTC).",
    emailError: "Why the last email failed; null unless emailStatus is failed.",
    emailRetryCount: "Email retries made (count).",
    emailed: "true once an email was sent to the contact.",
    emailBounced: "true when an email to the contact bounced.",
    emailedAt: "When the contact was last emailed (UTC).",
    emailBouncedAt: "When an email bounced (UTC).",
    emailConfidenceScore: "Confidence 0-100 that the email address is right.",
    emailVerificationStatus: "Result of verifying the email address, as the verifier reports it.",
    emailVerifiedAt: "When the email address was verified (UTC).",
    crmContactId: "The contact's id in the organization's CRM once synced.",
    crmSyncedAt: "When the contact was last synced to the CRM (UTC).",
    crmSyncError: "Why the CRM sync failed; null unless crmSyncStatus is failed.",
    notes: "Free-form notes kept with the contact; no bundled source writes them.",
    discoveredAt: "When a source first found the person (UTC); kept across re-extractions.",
    lastUpdatedAt: "When the contact record last changed (UTC).",
    createdAt: "When the contact record was first stored (UTC).",
    _access: "The caller's organization's unlock state of this contact and what unlocking it costs (2 credits).",
    email: `The person's email address as found or enriched. ${CONTACT_GATED}`,
    phone: `The person's phone number as found. ${CONTACT_GATED}`,
    isDistrictContact: "true: district level; false: school level.",
    linkedinUrl: `URL of the person's LinkedIn profile, when found. ${CONTACT_GATED}`,
    profileSummary: `A short profile of the person and their role (demo rows start 'Fictional demo contact (not a real person)'). ${CONTACT_GATED}`,
    keyFacts: `Free-form facts about the person as a JSON object (demo rows: fictional_person true). ${CONTACT_GATED}`,
    dataSource: "demo for the demo layer's fictional people; the pipeline's source otherwise.",
    enrichmentStatus:
      "pending, processing, completed or error; completed means an unlock of the contact is instant, any other a pending unlock (2 credits held).",
    emailStatus: "State of the latest email to the contact: pending, sent or failed (emailError says why).",
    crmSyncStatus: "State of the sync to the organization's CRM: pending, synced or failed (crmSyncError says why).",
    district: "The contact's district (school-level contacts carry their school's).",
    school: "The contact's school; null for a district-level contact.",
  },
  ...CONTACT_LIST.dictionary,
  ContactPage: {
    [TYPE]: "A page of contacts (GET /api/v1/contacts): data, pagination and _access_summary.",
    data: "The contacts of this page, in the requested order.",
    pagination: "Total over the whole result set (persons when unique), and the page's limit and offset.",
    _accessSummary:
      "Access over the whole result set (all pages, persons when unique), not the page: unlocked, locked, and the credits to unlock every locked contact (2 each).",
  },
  EnrichmentStatus: {
    [TYPE]: "State of a contact's enrichment.",
    pending: "Not enriched yet.",
    processing: "Enrichment running.",
    completed: "Enrichment done; an unlock is instant.",
    error: "Enrichment failed (enrichmentError says why).",
  },
  Query: {
    ...listArgs("contacts", "contacts", { defaultOrder: "name" }),
    "contact(id)": "Our contact id (UUID).",
    contacts: "Search contacts. Same parameters as GET /api/v1/contacts.",
    "contacts(limit)": limitArg(200),
    "contacts(unique)": "true (default): the deduplicated view, one row per person across sources (docs/contacts.md).",
    contact: "One listed contact (GET /api/v1/contacts/{id}).",
  },
};
