-- Deep-research briefs (docs/briefs.md). The briefs table itself came with the initial schema; a brief is
-- read by id within the caller's organization, and a build's dossier lists people by stable person keys.
CREATE INDEX "briefs_organization_id_idx" ON "briefs" ("organization_id");

-- A brief's person promoted to the organization's own contact record: a reference to the brief entry
-- (brief_id, person_key), never its prose; linked to the catalogue contact when the person has one
-- (contact_id), else an unlinked record (contact_id NULL) that a later promote links once the catalogue has it.
CREATE TABLE "promoted_contacts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "organization_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "brief_id" UUID NOT NULL,
    "person_key" TEXT NOT NULL,
    "contact_id" UUID,
    "entity_type" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "title" TEXT,
    "brief_reference" JSONB NOT NULL,
    "linked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "promoted_contacts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "promoted_contacts_organization_id_brief_id_person_key_key" ON "promoted_contacts" ("organization_id", "brief_id", "person_key");
CREATE INDEX "promoted_contacts_contact_id_idx" ON "promoted_contacts" ("contact_id");
