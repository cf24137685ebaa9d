import { defineFeature } from "../../../graphql/feature";
import { contactRecords } from "./contact.mcp";
import { listEndpoints } from "../../../graphql/rest";
import { ContactParentsResolver, DistrictContactsResolver, SchoolContactsResolver } from "./contact-relations.resolver";
import { contactsDictionary } from "./contact.dictionary";
import { createContactLoaders } from "./contact.loaders";
import { ContactResolver } from "./contact.resolver";

/** Contacts (GET/POST /contacts, /contacts/{id}), District.contacts, School.contacts, Contact.district / school. */
export const contactsFeature = defineFeature({
  name: "contacts",
  resolvers: [ContactResolver, DistrictContactsResolver, SchoolContactsResolver, ContactParentsResolver],
  loaders: { contacts: createContactLoaders },
  dictionary: contactsDictionary,
  rest: [
    ...listEndpoints("/contacts", "Contacts", "contacts"),
    { method: "GET", path: "/contacts/:id", operation: "Contact", input: "query", select: ["contact"], wrap: true },
  ],
  mcpRecord: contactRecords,
});
