import { useExtractor } from "../../src/features/account/unlocks/unlock.jobs";
import { demoExtractor } from "../../src/seed/demo/extractor";
import { ledgerViolations, NO_VIOLATIONS } from "../credits/ledger";
import { createTestApp, type TestApp } from "../support/app";
import { insertUnlock } from "../support/school-factories";
import { insertContactCatalogue, type ContactCatalogue } from "./fixtures";
import { until } from "../support/wait";

const FAST = { WORKER_POLL_SECONDS: "0.5", JOB_RETRY_DELAY_SECONDS: "0", JOB_RETRY_LIMIT: "1" };

describe("a pending contact unlock settles in the worker", () => {
  let t: TestApp;
  let k: ContactCatalogue;
  beforeAll(async () => {
    useExtractor(demoExtractor);
    t = await createTestApp(FAST, { jobs: "work" });
    k = await insertContactCatalogue(t.db);
  });
  afterAll(() => t?.close());

  it("runs the contact's enrichment, commits the 2-credit hold and reveals the gated fields", async () => {
    await insertUnlock(t.db, t.orgs.enterprise, "district", k.d.alpha);
    const res = await t.post("/api/v1/unlock", { entity_type: "contact", entity_id: k.c.bob }).expect(202);
    const done = await until(
      () => t.get(`/api/v1/unlock-status/contact/${k.c.bob}`).then((r) => r.body),
      (s) => s.state !== "unlock_pending",
    );
    expect(done).toMatchObject({ state: "unlocked", hold_id: res.body.hold_id, error: null });
    expect((await t.get("/api/v1/org").expect(200)).body.credits).toEqual({ balance: 98, held: 0, available: 98 });
    const record = (await t.get(`/api/v1/contacts/${k.c.bob}`).expect(200)).body.data;
    expect(record).toMatchObject({ enrichment_status: "completed", enrichment_error: null, email: "bob@alpha.example.org" });
    expect(record.enriched_at).toEqual(expect.any(String));
    expect(record._access).toMatchObject({ is_unlocked: true, is_unlocking: false, credits_spent: 2 });
    expect(await ledgerViolations(t.db)).toEqual(NO_VIOLATIONS);
  });
});
