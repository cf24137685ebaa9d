/**
 * A small contact catalogue: listed contacts under extracted (completed) districts and schools,
 * duplicates of one person by each matching rule, and contacts that must never be listed (parent not
 * extracted, no parent).
 */
import type { Db } from "../../src/db/client";
import { insert, insertDistrict } from "../support/factories";
import { insertSchool } from "../support/school-factories";

export interface ContactCatalogue {
  d: { alpha: string; beta: string; pending: string };
  s: { adams: string; pending: string };
  /** Listed contacts, by short name (ada2, bob2, cara2 are duplicates of ada, bob, cara). */
  c: Record<"ada" | "ada2" | "bob" | "bob2" | "cara" | "cara2" | "gus", string>;
  /** Never listed: under a pending school, under a pending district, without a district or school. */
  hidden: Record<"dan" | "eve" | "hal", string>;
}

const contact = (db: Db, values: Record<string, unknown>) => insert(db, "contacts", { data_source: "demo", source: "demo", ...values });

export async function insertContactCatalogue(db: Db): Promise<ContactCatalogue> {
  const d = {
    alpha: await insertDistrict(db, { name: "Alpha District", state: "NE", status: "completed" }),
    beta: await insertDistrict(db, { name: "Beta District", state: "IA", status: "completed" }),
    pending: await insertDistrict(db, { name: "Pending District", state: "NE", status: "pending" }),
  };
  const s = {
    adams: await insertSchool(db, { name: "Adams Elementary", district_id: d.alpha, state: "NE", status: "completed" }),
    pending: await insertSchool(db, { name: "Bryan High", district_id: d.alpha, state: "NE", status: "pending" }),
  };
  const t0 = new Date("2026-01-01T00:00:00.000Z").getTime();
  const at = (days: number) => new Date(t0 + days * 86_400_000);
  const c = {
    // The same superintendent twice under one dedupe_key (rule 1); the enriched row represents the person.
    ada: await contact(db, {
      name: "Ada Lovelace",
      title: "Superintendent",
      district_id: d.alpha,
      state: "NE",
      is_district_contact: true,
      email: "ada@alpha.example.org",
      phone: "(402) 555-0101",
      linkedin_url: "https://linkedin.example.org/ada",
      profile_summary: "Fictional superintendent.",
      key_facts: { fictional_person: true, tenure_years: 4 },
      dedupe_key: "ada.lovelace|superintendent",
      source_url: "https://demo.example.org/alpha/staff",
      enrichment_status: "completed",
      enriched_at: at(2),
      qualification_score: 90,
      email_status: "sent",
      emailed: true,
      crm_sync_status: "synced",
      crm_contact_id: "crm-ada",
      created_at: at(1),
      last_updated_at: at(1),
    }),
    ada2: await contact(db, {
      name: "Ada Lovelace",
      title: "Superintendent of Schools",
      district_id: d.alpha,
      state: "NE",
      is_district_contact: true,
      email: "a.lovelace@alpha.example.org",
      dedupe_key: "ada.lovelace|superintendent",
      source_url: "https://demo.example.org/alpha/leadership",
      enrichment_status: "pending",
      qualification_score: 50,
      created_at: at(2),
      last_updated_at: at(9),
    }),
    // Two rows of one email, any case (rule 2).
    bob: await contact(db, {
      name: "Bob Builder",
      title: "Director of Technology",
      district_id: d.alpha,
      state: "NE",
      is_district_contact: true,
      email: "bob@alpha.example.org",
      enrichment_status: "pending",
      qualification_score: 70,
      email_status: "failed",
      email_error: "bounced",
      crm_sync_status: "failed",
      created_at: at(3),
      last_updated_at: at(5),
    }),
    bob2: await contact(db, {
      name: "Robert Builder",
      title: "CTO",
      district_id: d.alpha,
      state: "NE",
      is_district_contact: true,
      email: " BOB@alpha.example.org",
      enrichment_status: "processing",
      qualification_score: 60,
      created_at: at(4),
      last_updated_at: at(4),
    }),
    // One name in one district, spacing, case and punctuation aside (rule 3), school level.
    cara: await contact(db, {
      name: "Cara Diaz",
      title: "Principal",
      district_id: d.alpha,
      school_id: s.adams,
      state: "NE",
      is_district_contact: false,
      enrichment_status: "completed",
      qualification_score: 80,
      created_at: at(5),
      last_updated_at: at(2),
    }),
    cara2: await contact(db, {
      name: "cara  DIAZ.",
      title: "Head of School",
      district_id: d.alpha,
      school_id: s.adams,
      state: "NE",
      is_district_contact: false,
      enrichment_status: "error",
      enrichment_error: "no public profile",
      qualification_score: 40,
      created_at: at(6),
      last_updated_at: at(3),
    }),
    gus: await contact(db, {
      name: "Gus Hill",
      title: "Chief Financial Officer",
      district_id: d.beta,
      state: "IA",
      is_district_contact: true,
      enrichment_status: "error",
      qualification_score: null,
      created_at: at(7),
      last_updated_at: at(7),
    }),
  };
  const hidden = {
    dan: await contact(db, { name: "Dan Evans", title: "Principal", district_id: d.alpha, school_id: s.pending, state: "NE" }),
    eve: await contact(db, { name: "Eve Fox", title: "Superintendent", district_id: d.pending, state: "NE", is_district_contact: true }),
    hal: await contact(db, { name: "Hal Ivy", title: "Executive Director", state: "NE" }),
  };
  return { d, s, c, hidden };
}
