-- Issue 25 point 1: contacts from official state directories (src/ingest/sources/state-directory.ts). directory_key is
-- the ingest's upsert key (unique; null for every other contact), directory_date the date of the latest file naming
-- the person (orders files: last_updated_at is also moved by other writers, e.g. an enrichment), former_at marks a person a newer directory file
-- replaced in the role (no longer listed: contact.service.ts LISTED, docs/contacts.md "State directories").
ALTER TABLE "contacts" ADD COLUMN "directory_key" TEXT;
ALTER TABLE "contacts" ADD COLUMN "directory_date" TIMESTAMPTZ(3);
ALTER TABLE "contacts" ADD COLUMN "former_at" TIMESTAMPTZ(3);
CREATE UNIQUE INDEX "contacts_directory_key_key" ON "contacts" ("directory_key");
