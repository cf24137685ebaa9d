import { defineFeature } from "../../../graphql/feature";
import { outreachDictionary } from "./outreach.dictionary";
import { outreachTools } from "./outreach.mcp";
import { OutreachResolver } from "./outreach.resolver";

/** Outreach e-mails to unlocked contacts, from the organization's templates (POST /contacts/{id}/outreach-email; docs/outreach.md). */
export const outreachFeature = defineFeature({
  name: "outreach",
  dictionary: outreachDictionary,
  resolvers: [OutreachResolver],
  rest: [
    {
      method: "POST",
      path: "/contacts/:id/outreach-email",
      operation: "OutreachEmail",
      input: "string-body",
      select: ["outreach_email"],
      errors: ["FORBIDDEN"],
    },
  ],
  mcp: outreachTools,
});
