/**
 * CSV and NDJSON exports of list endpoints (docs/exports.md): every matching row across several pages (the
 * page size set to 4 here), in the JSON list's order, gated as in JSON, capped per plan, with the usual errors.
 */
import { insertContactCatalogue, type ContactCatalogue } from "../contacts/fixtures";
import { createTestApp, type TestApp } from "../support/app";
import { insertDistrict } from "../support/factories";
import { insertUnlock } from "../support/school-factories";
import { countStatements } from "../support/statements";

/** RFC 4180 records (quoted cells with "" and line breaks; CRLF between records). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i += 1;
    } else cell += ch;
  }
  if (cell || row.length) throw new Error("the CSV does not end with CRLF");
  return rows;
}

const text = (res: { text?: string; body?: unknown }) => (typeof res.text === "string" ? res.text : String(res.body));

describe("exports: CSV and NDJSON of list endpoints", () => {
  let t: TestApp;
  const texas: string[] = [];
  let injected: string;
  let k: ContactCatalogue;

  beforeAll(async () => {
    t = await createTestApp({ EXPORT_CHUNK_ROWS: "4", EXPORT_ROW_CAP_FREE: "5" });
    for (let i = 0; i < 11; i += 1)
      texas.push(
        await insertDistrict(t.db, {
          name: i === 3 ? 'Comma, "Quoted"\nDistrict' : `Texas District ${String(i).padStart(2, "0")}`,
          state: "TX",
          student_count: 1000 - 10 * (i % 5), // ties: the sort's tie-break by id decides
          ai_summary: `Summary ${i}`,
        }),
      );
    injected = await insertDistrict(t.db, { name: '=HYPERLINK("http://evil.example","x")', state: "OK", ai_summary: "Locked summary" });
    await insertDistrict(t.db, { name: "Nebraska District", state: "NE" });
    k = await insertContactCatalogue(t.db);
  });
  afterAll(() => t?.close());

  const jsonPages = async (query: string, plan: "pro" | "enterprise" = "pro") => {
    const records: Record<string, unknown>[] = [];
    for (let offset = 0; ; offset += 4) {
      const body = (await t.get(`/api/v1/districts?${query}&limit=4&offset=${offset}`, plan).expect(200)).body;
      records.push(...body.data);
      if (!body.pagination.has_more) return records;
    }
  };

  it("CSV: a header row and every matching record across pages, in the JSON pages' order; attachment headers", async () => {
    const query = "state=TX&order_by=student_count&order_ascending=false";
    const expected = await jsonPages(query);
    expect(expected).toHaveLength(11);
    let res: any;
    // API key + one list statement per page of 4: 11 rows are 3 pages.
    const statements = await countStatements(t.db, async () => {
      res = await t.get(`/api/v1/districts?${query}`, "pro").set("Accept", "text/csv").expect(200);
    });
    expect(statements).toBe(1 + 3);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="districts-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers["x-export-rows"]).toBe("11");
    expect(res.headers["x-export-truncated"]).toBe("false");
    const [header, ...rows] = parseCsv(text(res));
    expect(header.slice(0, 3)).toEqual(["id", "fed_id", "name"]);
    expect(header).toContain("_access.is_unlocked");
    expect(header).toContain("annual_statistics.latest.school_year_start");
    expect(new Set(header).size).toBe(header.length);
    expect(rows.map((r) => r[header.indexOf("id")])).toEqual(expected.map((r) => r.id));
    // Quoting round-trips a comma, quotes and a line break.
    expect(rows.map((r) => r[header.indexOf("name")])).toContain('Comma, "Quoted"\nDistrict');
    expect(rows.every((r) => r.length === header.length)).toBe(true);
  });

  it("NDJSON: one record per line, each exactly the JSON list's record", async () => {
    const query = "state=TX&order_by=name";
    const expected = await jsonPages(query);
    const res = await t
      .get(`/api/v1/districts?${query}`, "pro")
      .set("Accept", "application/x-ndjson")
      .buffer(true)
      .parse((r, cb) => {
        let body = "";
        r.on("data", (c: Buffer) => (body += c.toString()));
        r.on("end", () => cb(null, body));
      });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/x-ndjson; charset=utf-8");
    const lines = String(res.body).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((l) => JSON.parse(l))).toEqual(expected);
  });

  it("gated fields are empty for a locked record and present once unlocked", async () => {
    const csv = async () => {
      const [header, ...rows] = parseCsv(
        text(await t.get("/api/v1/districts?state=TX&order_by=name", "pro").set("Accept", "text/csv").expect(200)),
      );
      const row = rows.find((r) => r[header.indexOf("id")] === texas[0])!;
      return { summary: row[header.indexOf("ai_summary")], unlocked: row[header.indexOf("_access.is_unlocked")] };
    };
    expect(await csv()).toEqual({ summary: "", unlocked: "false" });
    await insertUnlock(t.db, t.orgs.pro, "district", texas[0]);
    expect(await csv()).toEqual({ summary: "Summary 0", unlocked: "true" });
  });

  it("contacts: the listing rule holds (one row per person, never an unlisted contact), gated cells empty", async () => {
    const res = await t.get("/api/v1/contacts?order_by=name", "enterprise").set("Accept", "text/csv").expect(200);
    const [header, ...rows] = parseCsv(text(res));
    const json = (await t.get("/api/v1/contacts?order_by=name", "enterprise").expect(200)).body;
    expect(rows.map((r) => r[header.indexOf("id")])).toEqual(json.data.map((r: { id: string }) => r.id));
    expect(rows.map((r) => r[header.indexOf("id")])).toEqual(expect.arrayContaining([k.c.ada, k.c.bob, k.c.cara, k.c.gus]));
    expect(rows).toHaveLength(4);
    for (const hidden of Object.values(k.hidden)) expect(text(res)).not.toContain(hidden);
    expect(rows.map((r) => r[header.indexOf("email")])).toEqual(["", "", "", ""]);
  });

  it("the plan's row cap truncates, and the headers say so before the first byte", async () => {
    const res = await t.get("/api/v1/districts?state=TX", "free").set("Accept", "text/csv").expect(200);
    expect(parseCsv(text(res))).toHaveLength(1 + 5);
    expect(res.headers).toMatchObject({
      "x-export-rows": "5",
      "x-export-total": "11",
      "x-export-row-cap": "5",
      "x-export-truncated": "true",
    });
    // A `limit` below the cap is the caller's own choice, not a truncation.
    const own = await t.get("/api/v1/districts?state=TX&limit=3", "pro").set("Accept", "text/csv").expect(200);
    expect(parseCsv(text(own))).toHaveLength(1 + 3);
    expect(own.headers["x-export-truncated"]).toBe("false");
  });

  it("a bad filter is a 400 with the generic JSON body, also when CSV was asked for", async () => {
    const res = await t.get("/api/v1/districts?order_by=colour", "pro").set("Accept", "text/csv").expect(400);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ error: "bad_request", statusCode: 400 });
    expect(res.body.message).toContain("order_by");
    await t.get("/api/v1/districts?limit=0", "pro").set("Accept", "application/x-ndjson").expect(400);
  });

  it("Accept: JSON by default and for */*; 406 with the generic body for what the endpoint cannot produce", async () => {
    for (const accept of ["*/*", "application/json", "text/html;q=0.9, */*;q=0.1"]) {
      const res = await t.get("/api/v1/districts?state=TX&limit=1", "pro").set("Accept", accept).expect(200);
      expect(res.body.pagination.total).toBe(11);
    }
    expect(
      (await t.get("/api/v1/districts?state=TX&limit=1", "pro").set("Accept", "text/csv;q=0.5, */*;q=0.1").expect(200)).headers[
        "content-type"
      ],
    ).toMatch(/^text\/csv/);
    const refused = await t.get("/api/v1/districts", "pro").set("Accept", "application/xml").expect(406);
    expect(refused.body).toMatchObject({ error: "not_acceptable", statusCode: 406 });
    expect(refused.body.message).toContain("text/csv");
    // A detail read answers JSON only.
    await t.get(`/api/v1/districts/${texas[1]}`, "pro").set("Accept", "text/csv").expect(406);
  });

  it("guards against CSV formula injection: a cell starting with = is prefixed with '; NDJSON keeps the value", async () => {
    const [header, row] = parseCsv(text(await t.get("/api/v1/districts?state=OK", "pro").set("Accept", "text/csv").expect(200)));
    expect(row[header.indexOf("id")]).toBe(injected);
    expect(row[header.indexOf("name")]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    const nd = await t
      .get("/api/v1/districts?state=OK", "pro")
      .set("Accept", "application/x-ndjson")
      .buffer(true)
      .parse((r, cb) => {
        let body = "";
        r.on("data", (c: Buffer) => (body += c.toString()));
        r.on("end", () => cb(null, body));
      });
    expect(JSON.parse(String(nd.body).trim()).name).toBe('=HYPERLINK("http://evil.example","x")');
  });
});

describe("exports: every paged list GET of the route table", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("answers CSV (a header row from the operation's selection) and NDJSON; other routes are JSON only", async () => {
    const { routes } = await import("../../rest-adapter/routes");
    const { exportPlan } = await import("../../rest-adapter/export");
    const { getOperationAST } = await import("graphql");
    const listed = routes.filter(
      (r) =>
        r.method === "GET" &&
        r.input === "query" &&
        exportPlan(t.engine.schema, r.document, getOperationAST(r.document)!, r.path, r.select),
    );
    const paths = listed.map((r) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/districts",
        "/schools",
        "/contacts",
        "/operators",
        "/head-start-programs",
        "/childcare-centers",
        "/associations",
      ]),
    );
    for (const route of listed.filter((r) => r.path.includes(":"))) {
      // A parent that does not exist: the error comes before the first byte, as the generic JSON body.
      const res = await t
        .get(`/api/v1${route.path.replace(/:\w+/g, "00000000-0000-4000-8000-000000000000")}`, "enterprise")
        .set("Accept", "text/csv");
      expect([route.path, res.status, res.headers["content-type"], res.body.statusCode]).toEqual([
        route.path,
        404,
        "application/json; charset=utf-8",
        404,
      ]);
    }
    for (const route of listed.filter((r) => !r.path.includes(":"))) {
      const csv = await t.get(`/api/v1${route.path}`, "enterprise").set("Accept", "text/csv");
      expect([route.path, csv.status, csv.headers["content-type"]]).toEqual([route.path, 200, "text/csv; charset=utf-8"]);
      expect(text(csv).split("\r\n")[0]).toMatch(/^id,/);
      const nd = await t.get(`/api/v1${route.path}`, "enterprise").set("Accept", "application/x-ndjson");
      expect([route.path, nd.status]).toEqual([route.path, 200]);
    }
  });
});
