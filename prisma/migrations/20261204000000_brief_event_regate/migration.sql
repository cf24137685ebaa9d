-- Issue 20 point 2, briefs built before it (docs/briefs.md, "Briefs built before event gating"). A build for an
-- organization that had not unlocked the entity (findings.included false) stored timeline events restating gated
-- intelligence whole, and its narrative may quote them (titles, descriptions, source URLs of contracts, grants,
-- budgets, minutes). Reads now present the stored events with the organization's current unlock; the narrative
-- cannot be cleaned, so it is withheld, and a ready brief becomes failed with an error saying why, so that
-- POST /briefs builds it again (a ready brief is never rebuilt by a request).
UPDATE "briefs"
   SET "dossier" = jsonb_set("dossier", '{narrative}', jsonb_build_object(
         'included', false,
         'note', 'The narrative is withheld: this brief was built before timeline events restating gated intelligence were withheld from organizations that had not unlocked the entity, and it may quote them. POST /briefs builds it again.')),
       "status" = CASE WHEN "status" = 'ready' THEN 'failed' ELSE "status" END,
       "error" = CASE WHEN "status" = 'ready'
                      THEN 'built before gated timeline events were withheld (issue 20 point 2): its narrative is withheld; POST /briefs builds it again'
                      ELSE "error" END,
       "updated_at" = CURRENT_TIMESTAMP
 WHERE jsonb_typeof("dossier") = 'object'
   AND "dossier" -> 'findings' ->> 'included' = 'false'
   AND "dossier" -> 'narrative' ->> 'included' IS DISTINCT FROM 'false';
