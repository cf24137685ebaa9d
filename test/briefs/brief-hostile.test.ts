/**
 * Hostile probes of briefs: client input that must be a 4xx (never a 5xx or a stall), and gated data
 * that must not leak through a brief.
 */
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";

describe("briefs: hostile probes", () => {
  let t: TestApp;
  let project: string;
  let district: string;
  let briefId: string;

  beforeAll(async () => {
    t = await createTestApp({}, { jobs: "send" });
    project = (await t.post("/api/v1/projects", { name: "Hostile briefs" }).expect(201)).body.data.id;
    district = await insertDistrict(t.db, { name: "Hostile Brief District", state: "NE" });
    briefId = (await t.post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: district }).expect(202)).body
      .brief_id;
  });
  afterAll(() => t?.close());

  it("odd input on every brief route is a 4xx with the generic body", async () => {
    const probes: [string, string, unknown, number][] = [
      ["POST", `/api/v1/briefs/${briefId}/people/%E0%A4%A/promote`, undefined, 400],
      ["POST", `/api/v1/briefs/${briefId}/people/${"p_" + "a".repeat(10_000)}/promote`, undefined, 400],
      ["POST", `/api/v1/briefs/${briefId}/people/p_${"A".repeat(24)}/promote`, undefined, 400],
      ["POST", `/api/v1/briefs/${briefId}/people/p_${"a".repeat(24)}%00/promote`, undefined, 400],
      ["POST", `/api/v1/briefs/not-a-uuid/people/p_${"a".repeat(24)}/promote`, undefined, 400],
      ["POST", `/api/v1/briefs/${briefId}/people/p_${"a".repeat(24)}/promote`, { extra: 1 }, 400],
      ["POST", "/api/v1/briefs", [1, 2], 400],
      ["POST", "/api/v1/briefs", { project_id: 1, entity_type: "district", entity_id: district }, 400],
      ["POST", "/api/v1/briefs", { project_id: project, entity_type: null, entity_id: district }, 400],
      ["POST", "/api/v1/briefs", { project_id: project, entity_type: ["district"], entity_id: district }, 400],
      [
        "POST",
        "/api/v1/briefs",
        { project_id: project, entity_type: "district", entity_id: district, pad: "x".repeat(2 * 1024 * 1024) },
        413,
      ],
      ["GET", `/api/v1/briefs?project_id=${project}&project_id=${project}&entity_type=district&entity_id=${district}`, undefined, 400],
      ["GET", `/api/v1/briefs?project_id=${project}&entity_type=district&entity_id=${district.toUpperCase()}x`, undefined, 400],
      ["GET", `/api/v1/briefs?project_id=${project}&entity_type=&entity_id=${district}`, undefined, 400],
      ["GET", `/api/v1/briefs/${briefId}?x=1`, undefined, 400],
    ];
    const failures: string[] = [];
    for (const [method, path, body, status] of probes) {
      const req = method === "GET" ? t.get(path) : t.post(path, body);
      const res = await req;
      if (res.status !== status || res.body.statusCode !== status || typeof res.body.message !== "string")
        failures.push(`${method} ${path.slice(0, 120)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it("concurrent promotes and requests never answer 5xx", async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2
          ? t.post(`/api/v1/briefs/${briefId}/people/p_${"b".repeat(24)}/promote`, undefined)
          : t.post("/api/v1/briefs", { project_id: project, entity_type: "district", entity_id: district }),
      ),
    );
    expect(answers.map((a) => a.status).filter((s) => s >= 500)).toEqual([]);
  });
});
