/**
 * Background embedding (issue 24): with EMBEDDINGS_AUTO the worker's sweep sends `semantic.embed`, which embeds the
 * catalogue while the API answers; `coverage` says how far it has come. The start does not wait for it.
 */
import { scheduleEmbedding } from "../../src/features/research/semantic-search/semantic-search.jobs";
import { createTestApp, type TestApp } from "../support/app";
import { insert, insertDistrict } from "../support/factories";
import { until } from "../support/wait";

describe("background embedding", () => {
  let t: TestApp;
  let omaha: string;

  beforeAll(async () => {
    t = await createTestApp({ EMBEDDINGS_AUTO: "true", WORKER_POLL_SECONDS: "0.5", EMBEDDINGS_BATCH_SIZE: "2" }, { jobs: "work" });
    omaha = await insertDistrict(t.db, { name: "Omaha Public Schools", state: "NE", status: "completed", physical_city: "Omaha" });
    await insertDistrict(t.db, { name: "Lincoln Public Schools", state: "NE", status: "completed", physical_city: "Lincoln" });
    await insertDistrict(t.db, { name: "Millard Public Schools", state: "NE", status: "completed", physical_city: "Omaha" });
    await insert(t.db, "contacts", { name: "Cheryl Logan", title: "Superintendent", district_id: omaha, state: "NE", data_source: "test" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("fills the vectors in after start, and coverage reports it", async () => {
    const vectors = () => t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM embeddings`).then((rows) => rows[0]!.n);
    // Three district profiles and one contact profile, in batches of two.
    expect(await until(vectors, (n) => n === 4, 60_000)).toBe(4);
    const res = await t.post("/api/v1/semantic-search", { query: "Omaha", entity_type: "district" }).expect(200);
    expect(res.body.coverage).toEqual({ embedded: 3, total: 3 });
    expect(res.body.data[0].id).toBe(omaha);
  });

  it("sends nothing when EMBEDDINGS_AUTO is false, and one job per period of twice EMBEDDINGS_JOB_SECONDS otherwise", async () => {
    const sent: string[] = [];
    const queue = { sendNow: async (_job: unknown, _data: unknown, id: string) => (sent.includes(id) ? null : (sent.push(id), id)) };
    const on = { EMBEDDINGS_AUTO: "true" as const, EMBEDDINGS_JOB_SECONDS: 30 };
    expect(await scheduleEmbedding(queue, { ...on, EMBEDDINGS_AUTO: "false" }, 0)).toBe(false);
    expect(await scheduleEmbedding(queue, on, 60_000)).toBe(true);
    expect(await scheduleEmbedding(queue, on, 119_999)).toBe(false);
    expect(await scheduleEmbedding(queue, on, 120_000)).toBe(true);
    expect(sent).toHaveLength(2);
  });
});
