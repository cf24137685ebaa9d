/**
 * The extraction pipeline against fixture websites served on loopback (test/extraction/fixtures):
 * exact contacts, vendors, bids, funding, contracts, pain points, priorities, minutes and events; the
 * robots.txt-forbidden path never requested; the slow page, redirect loop, oversized file, missing page
 * and broken PDF recorded as errors while the site completes; the entity's status fields per stage.
 */
import { loadEnv } from "../../src/config/env";
import { EXTRACTIVE_PREFIX } from "../../src/features/research/text-generation/extractive.provider";
import { NoWebsiteError, runExtractionPipeline } from "../../src/features/research/extraction/pipeline";
import { createTestDb, type TestDb } from "../support/db";
import { insert, insertDistrict } from "../support/factories";
import { deadOrigin, EXTRACTION_TEST_ENV, serveFixtureSite, type FixtureSite } from "./support/fixture-server";

const env = loadEnv({ LOG_LEVEL: "silent", ...EXTRACTION_TEST_ENV });

describe("extraction pipeline over fixture websites", () => {
  let db: TestDb;
  let district: FixtureSite;
  let school: FixtureSite;
  let pine: FixtureSite;
  beforeAll(async () => {
    db = await createTestDb();
    district = await serveFixtureSite("cedar-ridge");
    school = await serveFixtureSite("maple-grove");
    pine = await serveFixtureSite("pine-hollow");
  });
  afterAll(async () => {
    await district?.close();
    await school?.close();
    await pine?.close();
    await db?.close();
  });

  const rows = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => db.query<T>(sql, params);

  it("extracts a district site exactly, records its bad pages, never requests the forbidden path", async () => {
    const o = district.origin;
    const id = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE", website_url: `${o}/` });
    const before = Date.now();
    const summary = await runExtractionPipeline(db, "district", id, { env, jobId: "6c0c8a53-3b1e-4f0e-9d64-1f4b8d1e2a01", retryCount: 1 });

    expect(summary).toMatchObject({
      status: "completed",
      root_url: `${o}/`,
      pages_fetched: 9,
      sitemap_urls: 9,
      counts: {
        contacts: 8,
        vendors: 9,
        pain_points: 6,
        funding: 5,
        contracts: 3,
        bids: 3,
        timeline_events: 11,
        strategic_priorities: 4,
        meeting_minutes_pdfs: 1,
      },
      text_provider: "extractive",
      error: null,
    });
    expect(summary.skipped.robots).toBe(2);
    // Bad pages: recorded, the site still completed.
    expect(summary.errors.map((e) => [e.url.slice(o.length), e.kind])).toEqual(
      expect.arrayContaining([
        ["/board/minutes/2026-09-09-regular.pdf", "pdf"],
        ["/slow-calendar.html", "timeout"],
        ["/old/home", "redirect_loop"],
        ["/files/annual-report.pdf", "too_large"],
        ["/missing.html", "http_status"],
      ]),
    );
    expect(summary.errors).toHaveLength(5);
    // robots.txt first; /private/ (linked from the home page and listed in the sitemap) never requested.
    expect(district.requests[0]).toBe("/robots.txt");
    expect(district.requests.filter((p) => p.startsWith("/private/"))).toEqual([]);
    expect(district.requests).toContain("/sitemap.xml");
    expect(district.requests).not.toContain("/images/logo.png");

    const contacts = await rows(
      `SELECT name, title, email, phone, source_url, district_id, school_id, is_district_contact, state, data_source, source
         FROM contacts WHERE district_id = $1 ORDER BY name`,
      [id],
    );
    const page = (p: string) => `${o}${p}`;
    const common = {
      district_id: id,
      school_id: null,
      is_district_contact: true,
      state: "NE",
      data_source: "extraction",
      source: "website",
    };
    expect(contacts).toEqual([
      {
        name: "Alan Thomas",
        title: "Assistant Superintendent for Business Services",
        email: "athomas@cedarridge.example",
        phone: "(402) 555-0102",
        source_url: page("/district/leadership.html"),
        ...common,
      },
      { name: "Dana Whitfield", title: "Board President", email: null, phone: null, source_url: page("/board/minutes.html"), ...common },
      {
        name: "Dr. Maria Lopez",
        title: "Superintendent",
        email: "mlopez@cedarridge.example",
        phone: "(402) 555-0101",
        source_url: page("/district/leadership.html"),
        ...common,
      },
      {
        name: "Jordan Ellis",
        title: "Director of Technology",
        email: "jellis@cedarridge.example",
        phone: "(402) 555-0110",
        source_url: page("/departments/technology.html"),
        ...common,
      },
      {
        name: "Luis Ortega",
        title: "Instructional Technology Coordinator",
        email: "lortega@cedarridge.example",
        phone: "(402) 555-0112",
        source_url: page("/departments/technology.html"),
        ...common,
      },
      { name: "Marcus Bell", title: "Vice President", email: null, phone: null, source_url: page("/board/minutes.html"), ...common },
      {
        name: "Priya Raman",
        title: "Chief Financial Officer",
        email: "praman@cedarridge.example",
        phone: "(402) 555-0103 ext. 210",
        source_url: page("/district/leadership.html"),
        ...common,
      },
      {
        name: "Samantha Cho",
        title: "Network Administrator",
        email: "scho@cedarridge.example",
        phone: null,
        source_url: page("/departments/technology.html"),
        ...common,
      },
    ]);

    const vendors = await rows(
      `SELECT v.name, v.category, ev.source_url, ev.data_source FROM entity_vendors ev JOIN vendors v ON v.id = ev.vendor_id
        WHERE ev.district_id = $1 ORDER BY v.name`,
      [id],
    );
    const minutesPdf = page("/board/minutes/2026-10-14-regular.pdf");
    const tech = page("/departments/technology.html");
    expect(vendors).toEqual(
      [
        ["CDW-G", "devices", minutesPdf],
        ["Canvas", "lms", tech],
        ["ClassLink", "sso", tech],
        ["Finalsite", "communication", page("/")],
        ["GoGuardian", "security", tech],
        ["Google Chromebook", "devices", tech],
        ["Infinite Campus", "sis", minutesPdf],
        ["Northstar Roofing Company", "other", minutesPdf],
        ["PowerSchool", "sis", tech],
      ].map(([name, category, source_url]) => ({ name, category, source_url, data_source: "extraction" })),
    );

    const bids = await rows(
      `SELECT title, status, posted_on, deadline_at, url, source_url FROM bids WHERE district_id = $1 ORDER BY deadline_at`,
      [id],
    );
    const bidsPage = page("/purchasing/bids.html");
    expect(bids).toEqual([
      {
        title: "RFP 2025-09: Food Service Management",
        status: "closed",
        posted_on: "2025-03-03",
        deadline_at: new Date("2025-04-10T19:00:00.000Z"),
        url: bidsPage,
        source_url: bidsPage,
      },
      {
        title: "RFP 2026-14: Student Transportation Routing Software",
        status: "open",
        posted_on: "2026-11-02",
        deadline_at: new Date("2030-01-15T20:00:00.000Z"),
        url: page("/purchasing/rfp-2026-14.pdf"),
        source_url: bidsPage,
      },
      {
        title: "RFQ 2026-15: Network Switch Replacement",
        status: "open",
        posted_on: "2026-10-28",
        deadline_at: new Date("2030-02-03T16:00:00.000Z"),
        url: bidsPage,
        source_url: bidsPage,
      },
    ]);

    const news = page("/news/bond-and-grants.html");
    expect(await rows(`SELECT source, amount, fiscal_year, source_url FROM funding WHERE district_id = $1 ORDER BY source`, [id])).toEqual([
      { source: "bond", amount: 48_500_000, fiscal_year: null, source_url: news },
      { source: "erate", amount: 1_200_000, fiscal_year: 2026, source_url: news },
      { source: "esser", amount: 342_000, fiscal_year: null, source_url: minutesPdf },
      { source: "grant", amount: 250_000, fiscal_year: 2027, source_url: news },
      { source: "title_i", amount: 2_300_000, fiscal_year: null, source_url: news },
    ]);

    expect(
      await rows(
        `SELECT v.name AS vendor, c.category, c.amount, c.starts_on, c.expires_on, c.source_url
           FROM contracts c LEFT JOIN vendors v ON v.id = c.vendor_id WHERE c.district_id = $1 ORDER BY c.amount`,
        [id],
      ),
    ).toEqual([
      {
        vendor: "Infinite Campus",
        category: "sis",
        amount: 186_000,
        starts_on: "2026-07-01",
        expires_on: "2029-06-30",
        source_url: minutesPdf,
      },
      { vendor: "CDW-G", category: "devices", amount: 342_000, starts_on: null, expires_on: null, source_url: minutesPdf },
      {
        vendor: "Northstar Roofing Company",
        category: "other",
        amount: 1_250_000,
        starts_on: null,
        expires_on: null,
        source_url: minutesPdf,
      },
    ]);

    expect(await rows(`SELECT category, source_url FROM pain_points WHERE district_id = $1 ORDER BY category, source_url`, [id])).toEqual([
      { category: "budget", source_url: minutesPdf },
      { category: "enrollment", source_url: news },
      { category: "infrastructure", source_url: tech },
      { category: "infrastructure", source_url: news },
      { category: "integration", source_url: tech },
      { category: "staffing", source_url: news },
    ]);

    const events = await rows<{ event_type: string; event_date: string; n: number }>(
      `SELECT event_type, event_date, count(*)::int AS n FROM timeline_events WHERE entity_type = 'district' AND entity_id = $1
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [id],
    );
    expect(events).toEqual([
      { event_type: "board_meeting", event_date: "2026-10-14", n: 1 },
      { event_type: "budget_adopted", event_date: "2026-10-14", n: 1 },
      { event_type: "contract_award", event_date: "2026-10-14", n: 3 },
      { event_type: "grant_award", event_date: "2026-10-20", n: 1 },
      { event_type: "leadership_change", event_date: "2026-10-14", n: 1 },
      { event_type: "news", event_date: "2026-10-20", n: 1 },
      { event_type: "rfp_posted", event_date: "2025-03-03", n: 1 },
      { event_type: "rfp_posted", event_date: "2026-10-28", n: 1 },
      { event_type: "rfp_posted", event_date: "2026-11-02", n: 1 },
    ]);

    // Every extracted row keeps its page and says where it came from.
    for (const table of ["pain_points", "funding", "contracts", "bids", "entity_vendors", "contacts"])
      expect(
        await rows(
          `SELECT count(*)::int AS n FROM ${table} WHERE district_id = $1 AND (source_url IS NULL OR source_url NOT LIKE $2 OR data_source <> 'extraction')`,
          [id, `${o}/%`],
        ),
      ).toEqual([{ n: 0 }]);

    const [record] = await rows<Record<string, any>>(`SELECT * FROM districts WHERE id = $1`, [id]);
    expect(record).toMatchObject({
      status: "completed",
      error_message: null,
      retry_count: 1,
      last_analysis_job_id: "6c0c8a53-3b1e-4f0e-9d64-1f4b8d1e2a01",
      strategic_priorities: [
        "Literacy for every learner",
        "Safe and supportive schools",
        "Modern learning environments",
        "Fiscal stewardship",
      ],
      meeting_minutes_pdfs: [minutesPdf],
    });
    expect(record.ai_summary.startsWith(EXTRACTIVE_PREFIX)).toBe(true);
    expect(record.ai_summary).toContain("Cedar Ridge Public Schools serves 4,800 students in nine schools across Cedar County, Nebraska.");
    const stamps = ["website_mapped_at", "content_fetched_at", "content_extracted_at", "summary_generated_at"].map((c) =>
      new Date(record[c]).getTime(),
    );
    expect(stamps.every((t) => t >= before)).toBe(true);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
    expect(new Date(record.crawled_at).getTime()).toBe(stamps[1]);

    const [run] = await rows<Record<string, any>>(`SELECT * FROM extraction_runs WHERE entity_id = $1`, [id]);
    expect(run).toMatchObject({
      entity_type: "district",
      status: "completed",
      pages_fetched: 9,
      job_id: "6c0c8a53-3b1e-4f0e-9d64-1f4b8d1e2a01",
      text_provider: "extractive",
    });
    expect(run.errors).toHaveLength(5);
    expect(run.counts).toEqual(summary.counts);
  });

  it("a second run replaces the first and the entity's demo rows; contacts and bids keep their ids", async () => {
    const id = await insertDistrict(db, { name: "Cedar Ridge Public Schools", state: "NE", website_url: `${district.origin}/` });
    await runExtractionPipeline(db, "district", id, { env });
    const ids = async (table: string) =>
      (await rows<{ id: string }>(`SELECT id FROM ${table} WHERE district_id = $1 ORDER BY id`, [id])).map((r) => r.id);
    const contactIds = await ids("contacts");
    const discovered = await rows(`SELECT id, discovered_at FROM contacts WHERE district_id = $1 ORDER BY id`, [id]);
    const bidIds = await ids("bids");
    await insert(db, "pain_points", {
      entity_type: "district",
      district_id: id,
      category: "other",
      description: "Demo (generated): invented",
      data_source: "demo",
    });
    await insert(db, "contacts", { district_id: id, name: "Avery Quillfeather", data_source: "demo" });
    const again = await runExtractionPipeline(db, "district", id, { env });
    expect(again.status).toBe("completed");
    expect(await ids("contacts")).toEqual(contactIds);
    // Found again: the same row, still discovered when it was first found.
    expect(await rows(`SELECT id, discovered_at FROM contacts WHERE district_id = $1 ORDER BY id`, [id])).toEqual(discovered);
    expect(await ids("bids")).toEqual(bidIds);
    for (const table of ["contacts", "pain_points", "funding", "contracts", "bids", "entity_vendors"]) {
      const [{ demo, total }] = await rows<{ demo: number; total: number }>(
        `SELECT count(*) FILTER (WHERE data_source = 'demo')::int AS demo, count(*)::int AS total FROM ${table} WHERE district_id = $1`,
        [id],
      );
      expect({ table, demo, total: total > 0 }).toEqual({ table, demo: 0, total: true });
    }
    expect(await rows(`SELECT count(*)::int AS n FROM pain_points WHERE district_id = $1`, [id])).toEqual([{ n: 6 }]);
    expect(await rows(`SELECT count(*)::int AS n FROM timeline_events WHERE entity_id = $1`, [id])).toEqual([{ n: 11 }]);
    expect(await rows(`SELECT count(*)::int AS n FROM extraction_runs WHERE entity_id = $1`, [id])).toEqual([{ n: 2 }]);
  });

  it("extracts a school site: JSON-LD, list and 'Title: Name' layouts; contacts under the school and its district", async () => {
    const parent = await insertDistrict(db, { state: "NE" });
    const schoolId = await insert(db, "schools", {
      fed_id: "990000000001",
      name: "Maple Grove Elementary",
      state: "NE",
      district_id: parent,
      website_url: `${school.origin}/`,
      data_source: "test",
    });
    const summary = await runExtractionPipeline(db, "school", schoolId, { env });
    // No robots.txt (404: everything allowed) and no sitemap (404: not an error).
    expect(summary).toMatchObject({
      status: "completed",
      pages_fetched: 3,
      errors: [],
      counts: { contacts: 6, vendors: 3, pain_points: 1 },
    });
    const contacts = await rows(
      `SELECT name, title, email, phone, district_id, school_id, is_district_contact FROM contacts WHERE school_id = $1 ORDER BY name`,
      [schoolId],
    );
    const under = { district_id: parent, school_id: schoolId, is_district_contact: false };
    expect(contacts).toEqual([
      { name: "Ben Carter", title: "Library Media Specialist", email: "bcarter@maplegrove.example", phone: null, ...under },
      { name: "Dev Patel", title: "School Nurse", email: null, phone: null, ...under },
      { name: "Grace Kim", title: "School Counselor", email: "gkim@maplegrove.example", phone: null, ...under },
      { name: "Hannah Brooks", title: "Principal", email: "hbrooks@maplegrove.example", phone: "(402) 555-0140", ...under },
      { name: "Omar Haddad", title: "Assistant Principal", email: "ohaddad@maplegrove.example", phone: null, ...under },
      { name: "Rita Alvarez", title: "Office Manager", email: null, phone: null, ...under },
    ]);
    expect(
      await rows(
        `SELECT v.name FROM entity_vendors ev JOIN vendors v ON v.id = ev.vendor_id WHERE ev.school_id = $1 AND ev.entity_type = 'school' ORDER BY 1`,
        [schoolId],
      ),
    ).toEqual([{ name: "IXL" }, { name: "ParentSquare" }, { name: "Zearn" }]);
    const [record] = await rows<Record<string, unknown>>(`SELECT status, content_extracted_at, ai_summary FROM schools WHERE id = $1`, [
      schoolId,
    ]);
    expect(record.status).toBe("completed");
    expect(String(record.ai_summary)).toMatch(/^Extractive summary/);
  });

  it("extracts a second district layout: sitemap index only, our own robots.txt group, paragraph cards, bid table", async () => {
    const o = pine.origin;
    const id = await insertDistrict(db, { name: "Pine Hollow Unified School District", state: "CA", website_url: o });
    const summary = await runExtractionPipeline(db, "district", id, { env });
    // The home page links nowhere: every other page came from the sitemap index's child sitemap.
    expect(summary).toMatchObject({ status: "completed", pages_fetched: 5, sitemap_urls: 3, errors: [], skipped: { robots: 1 } });
    expect(pine.requests).toEqual(expect.arrayContaining(["/sitemap-index.xml", "/sitemap-pages.xml"]));
    // Disallowed for the edmarket-crawler group only (the * group allows everything).
    expect(pine.requests.filter((p) => p.startsWith("/drafts/"))).toEqual([]);
    const admin = `${o}/about/administration.html`;
    expect(await rows(`SELECT name, title, email, phone, source_url FROM contacts WHERE district_id = $1 ORDER BY name`, [id])).toEqual([
      {
        name: "Dr. Keisha Morgan",
        title: "Superintendent",
        email: "kmorgan@pinehollow.example",
        phone: "(530) 555-0170",
        source_url: admin,
      },
      // The page shows Keisha's address as the link text; the mailto link is Ethan's own.
      {
        name: "Ethan Wallace",
        title: "Chief Business Official",
        email: "ewallace@pinehollow.example",
        phone: "(530) 555-0171 ext. 204",
        source_url: admin,
      },
      {
        name: "Linh Nguyen",
        title: "Director of Student Services",
        email: "lnguyen@pinehollow.example",
        phone: "(530) 555-0175",
        source_url: admin,
      },
      { name: "Owen Fitzgerald", title: "Technology Coordinator", email: "ofitzgerald@pinehollow.example", phone: null, source_url: admin },
    ]);
    const bidsPage = `${o}/procurement/open-bids.html`;
    expect(
      await rows(`SELECT title, status, posted_on, deadline_at, url, source_url FROM bids WHERE district_id = $1 ORDER BY deadline_at`, [
        id,
      ]),
    ).toEqual([
      {
        title: "IFB 27-03: Modular Classroom Installation",
        status: "open",
        posted_on: "2026-11-03",
        deadline_at: new Date("2029-12-08T22:00:00.000Z"),
        url: `${o}/procurement/ifb-27-03.html`,
        source_url: bidsPage,
      },
      {
        title: "RFP 27-04: Cybersecurity Monitoring Services",
        status: "open",
        posted_on: "2026-11-10",
        deadline_at: new Date("2030-01-12T18:00:00.000Z"),
        url: `${o}/procurement/rfp-27-04.html`,
        source_url: bidsPage,
      },
    ]);
    expect(
      await rows(
        `SELECT v.name, v.category FROM entity_vendors ev JOIN vendors v ON v.id = ev.vendor_id WHERE ev.district_id = $1 ORDER BY 1`,
        [id],
      ),
    ).toEqual([
      { name: "Aeries", category: "sis" },
      { name: "Google Classroom", category: "lms" },
      { name: "SchoolMessenger", category: "communication" },
    ]);
    expect(await rows(`SELECT category FROM pain_points WHERE district_id = $1`, [id])).toEqual([{ category: "staffing" }]);
    // Nothing was found for these: they are empty, not invented.
    expect(await rows(`SELECT strategic_priorities, meeting_minutes_pdfs FROM districts WHERE id = $1`, [id])).toEqual([
      { strategic_priorities: [], meeting_minutes_pdfs: [] },
    ]);
    expect(await rows(`SELECT count(*)::int AS n FROM funding WHERE district_id = $1`, [id])).toEqual([{ n: 0 }]);
  });

  it("a dead site fails the run: status error with the reason, a run row, nothing extracted", async () => {
    const dead = await deadOrigin();
    const id = await insertDistrict(db, { state: "NE", website_url: `${dead}/` });
    await expect(runExtractionPipeline(db, "district", id, { env, retryCount: 2 })).rejects.toThrow(/site unreachable: ECONNREFUSED/);
    const [record] = await rows<Record<string, unknown>>(
      `SELECT status, error_message, retry_count, website_mapped_at, content_fetched_at FROM districts WHERE id = $1`,
      [id],
    );
    expect(record).toMatchObject({ status: "error", retry_count: 2, website_mapped_at: null, content_fetched_at: null });
    expect(String(record.error_message)).toMatch(/^site unreachable: ECONNREFUSED/);
    expect(await rows(`SELECT status, pages_fetched FROM extraction_runs WHERE entity_id = $1`, [id])).toEqual([
      { status: "error", pages_fetched: 0 },
    ]);
    expect(await rows(`SELECT count(*)::int AS n FROM contacts WHERE district_id = $1`, [id])).toEqual([{ n: 0 }]);
  });

  it("an entity without a website_url ends in error (the pipeline never invents a site)", async () => {
    const id = await insertDistrict(db, { state: "NE" });
    await expect(runExtractionPipeline(db, "district", id, { env })).rejects.toBeInstanceOf(NoWebsiteError);
    expect(await rows(`SELECT status, error_message FROM districts WHERE id = $1`, [id])).toEqual([
      { status: "error", error_message: "district has no website_url to crawl" },
    ]);
  });

  it("a loopback website_url is refused unless EXTRACTION_ALLOW_PRIVATE_HOSTS is set", async () => {
    const id = await insertDistrict(db, { state: "NE", website_url: `${school.origin}/` });
    const strict = loadEnv({ LOG_LEVEL: "silent", ...EXTRACTION_TEST_ENV, EXTRACTION_ALLOW_PRIVATE_HOSTS: "false" });
    const served = school.requests.length;
    await expect(runExtractionPipeline(db, "district", id, { env: strict })).rejects.toThrow(/refused address/);
    expect(school.requests.length).toBe(served);
  });
});
