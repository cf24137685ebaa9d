/**
 * Issue 22, the analysis of an article: the offline rules (types, intent, dates, payload, evidence offsets),
 * entity resolution against a small catalogue built with factories (acronym, ISD/USD variants, numbered
 * districts, ambiguous Springfield, private/university/Canadian bodies unresolved, state from a dateline),
 * and analyzeArticle writing signals and timeline events and replacing them on re-analysis.
 */
import { analyzeArticle, analyzeText, NEWS_SOURCE } from "../../src/features/research/news/analysis";
import { extractSignals } from "../../src/features/research/news/analysis/rules";
import { findAmounts, findDates } from "../../src/features/research/news/analysis/text";
import { documentOf } from "../../src/features/research/news/analysis/types";
import { createTestDb, type TestDb } from "../support/db";
import { insert, insertDistrict } from "../support/factories";

const PUB = new Date("2024-05-10T12:00:00Z");
const article = (title: string, text: string, domain = "news.example.com") => ({
  title,
  text,
  url: `https://${domain}/a/${encodeURIComponent(title)}`,
  domain,
  published_at: PUB,
});
const primary = (title: string, text: string) => extractSignals(article(title, text))[0];

describe("signal rules (offline default)", () => {
  it.each([
    ["Voters approve $45 million bond for new middle school", "The bond measure passed with 62% of the vote.", "facility_bond", "high"],
    ["Bond measure fails again", "Voters rejected the $30 million bond referendum for a third time.", "facility_bond", "low"],
    ["District issues RFP for student information system", "Proposals are due June 3.", "rfp_released", "high"],
    ["Superintendent Jane Roe to retire in June", "The board will start a superintendent search.", "leadership_change", "medium"],
    ["District wins $2 million literacy grant", "The grant was awarded by the state.", "grant_award", "medium"],
    ["Board faces $6 million deficit, plans layoffs", "The shortfall comes from falling state aid.", "budget_deficit", "low"],
    ["District ends year with $445,000 surplus", "The fund balance grew.", "budget_surplus", "low"],
    ["Chronic absenteeism hits 30% in district", "One in three students missed 18 days.", "chronic_absenteeism", "low"],
    [
      "Teacher shortage leaves 40 classrooms without a teacher",
      "The district is hiring substitutes and offering a signing bonus.",
      "staffing_shortage",
      "medium",
    ],
    ["Board approves 8,500 Chromebooks for students", "The purchase costs $2,669,500.", "technology_initiative", "high"],
    ["Board adopts new K-5 math curriculum", "The committee picked Illustrative Mathematics.", "curriculum_adoption", "high"],
    ["Student arrested after gun found at high school", "Police said the school was locked down.", "safety_incident", "low"],
    ["Enrollment decline forces closure of two elementary schools", "Enrollment fell by 400 students.", "enrollment_change", "low"],
    ["Varsity girls win state basketball championship", "The team beat Central 59-54.", "noise", "none"],
  ])("%s -> %s / %s", (title, text, type, intent) => {
    const s = primary(title, text);
    expect(s.signal_type).toBe(type);
    expect(s.buying_intent).toBe(intent);
    expect(s.buying_intent_reason.length).toBeGreaterThan(5);
  });

  it("evidence sentences carry their offsets into title + text, and the summary is one of them", () => {
    const a = article(
      "Voters approve $45 million bond",
      "Turnout was low. The bond measure passed on May 7 with 62% of the vote. Work starts next year.",
    );
    const [s] = extractSignals(a);
    const doc = documentOf(a);
    expect(s.evidence.length).toBeGreaterThan(0);
    for (const e of s.evidence) expect(doc.slice(e.start, e.end)).toBe(e.text);
    expect(s.evidence.map((e) => e.text)).toContain(s.summary);
  });

  it("dates: from the text relative to publication, else the publication day with lower confidence", () => {
    const dated = primary("Voters approve bond", "The $12 million bond measure passed on May 7 with 60% of the vote.");
    expect(dated.signal_date).toBe("2024-05-07");
    expect(dated.signal_date_confidence).toBe(0.75);
    const undated = primary("Voters approve bond", "The $12 million bond measure passed with 60% of the vote.");
    expect(undated.signal_date).toBe("2024-05-10");
    expect(undated.signal_date_confidence).toBe(0.5);
    // A month after publication is last year's; a written year is kept.
    expect(findDates("on Dec. 3 and Sept. 25, 2023", PUB).map((d) => d.date)).toEqual(["2023-12-03", "2023-09-25"]);
  });

  it("payload: amounts, counts, percentages and vendors as written", () => {
    expect(findAmounts("a $45 million bond, $2,669,500 and $1.2 billion").map((a) => a.value)).toEqual([45e6, 2_669_500, 1.2e9]);
    const s = primary("Board approves 8,500 Chromebooks from Dell for $2.7 million", "The purchase was approved 5-2.");
    expect(s.payload).toMatchObject({
      amounts: [{ text: "$2.7 million", value: 2_700_000 }],
      counts: [{ value: 8500, noun: "chromebooks" }],
      vendors: ["Dell"],
    });
  });
});

describe("entity resolution and writing (database)", () => {
  let db: TestDb;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    db = await createTestDb();
    const d = (key: string, values: Record<string, unknown>) =>
      insertDistrict(db, { district_type_code: "1", ...values }).then((id) => (ids[key] = id));
    await d("lausd", {
      fed_id: "0622710",
      name: "Los Angeles Unified",
      state: "CA",
      physical_city: "Los Angeles",
      website_url: "http://www.lausd.org",
    });
    await d("houston", { fed_id: "4823640", name: "HOUSTON ISD", state: "TX", physical_city: "HOUSTON" });
    await d("houstonMn", { fed_id: "2714280", name: "HOUSTON PUBLIC SCHOOL DISTRICT", state: "MN", physical_city: "HOUSTON" });
    await d("eanes", { fed_id: "4817760", name: "EANES ISD", state: "TX", physical_city: "AUSTIN" });
    await d("ulysses", { fed_id: "2012420", name: "Ulysses", state: "KS", physical_city: "Ulysses", state_district_id: "KS-D0214" });
    await d("garden", { fed_id: "2005490", name: "Garden City", state: "KS", physical_city: "Garden City", state_district_id: "KS-D0457" });
    await d("johnson1", { fed_id: "5603770", name: "Johnson County School District #1", state: "WY", physical_city: "Buffalo" });
    await d("springMo", { fed_id: "2928860", name: "SPRINGFIELD R-XII", state: "MO", physical_city: "SPRINGFIELD" });
    await d("springPa", { fed_id: "4222600", name: "Springfield SD", state: "PA", physical_city: "Springfield" });
    await d("springMa", { fed_id: "2511130", name: "Springfield", state: "MA", physical_city: "Springfield" });
    await d("omaha", {
      fed_id: "3174820",
      name: "OMAHA PUBLIC SCHOOLS",
      state: "NE",
      physical_city: "OMAHA",
      website_url: "https://www.ops.org",
    });
    await d("toronto", { fed_id: "3900001", name: "Toronto City", state: "OH", physical_city: "Toronto" });
  });
  afterAll(() => db.close());

  const resolve = async (title: string, text: string, domain = "news.example.com") => {
    const signals = await analyzeText(db, article(title, text, domain));
    return {
      signals,
      fed: [...new Set(signals.map((s) => s.district_fed_id).filter(Boolean))],
      status: signals[0].entity_resolution_status,
    };
  };

  it("an acronym from the alias table resolves (LAUSD)", async () => {
    const r = await resolve("LAUSD board renews superintendent's contract", "The board voted 7-0.");
    expect(r.fed).toEqual(["0622710"]);
    expect(r.signals[0].entity_match_reason).toMatch(/alias/);
    expect(r.signals[0].entity_match_confidence).toBeGreaterThan(0.8);
  });

  it("ISD / Unified School District variants resolve to the directory name", async () => {
    expect((await resolve("Eanes ISD's $80 million bond passes", "Voters approved Proposition A.")).fed).toEqual(["4817760"]);
    expect((await resolve("Los Angeles Unified School District names new chief", "The district is in California.")).fed).toEqual([
      "0622710",
    ]);
    // "Houston ISD" against HOUSTON ISD (TX) and HOUSTON PUBLIC SCHOOL DISTRICT (MN): the ISD decides.
    expect((await resolve("Houston ISD board approves budget", "Trustees met Thursday.")).fed).toEqual(["4823640"]);
  });

  it("numbered districts: USD 214 in Kansas by its state number; School District No. 1 by its name", async () => {
    expect((await resolve("USD 214 adopts new reading curriculum", "The Ulysses board in Kansas approved the materials.")).fed).toEqual([
      "2012420",
    ]);
    expect((await resolve("Johnson County School District No. 1 spends surplus", "Trustees in Buffalo, Wyoming, voted 5-4.")).fed).toEqual([
      "5603770",
    ]);
  });

  it("Springfield with no state is ambiguous (no district), with a state it resolves, the Roman numeral agreeing", async () => {
    const r = await resolve("Springfield School District seeks food service bids", "Proposals are due in March.");
    expect(r.status).toBe("ambiguous");
    expect(r.fed).toEqual([]);
    expect(r.signals[0].district_id).toBeNull();
    expect(r.signals[0].entity_match_reason).toMatch(/none chosen/);
    expect((await resolve("Springfield R-XII buys Chromebooks", "The Missouri district approved 8,500 devices.")).fed).toEqual(["2928860"]);
  });

  it("state from a dateline", async () => {
    expect((await resolve("Board approves budget", "OMAHA, Neb. — Omaha Public Schools adopted its budget on Monday.")).fed).toEqual([
      "3174820",
    ]);
  });

  it("a Catholic school, a university and a Canadian board do not resolve", async () => {
    const catholic = await resolve(
      "St. Mary's Catholic School in Springfield to close",
      "The Diocese of Springfield, Massachusetts, said enrollment fell.",
    );
    expect(catholic.fed).toEqual([]);
    const university = await resolve(
      "Springfield College gets $2 million grant",
      "The college in Springfield, Massachusetts, will build a lab.",
    );
    expect(university.fed).toEqual([]);
    const canada = await resolve(
      "Toronto District School Board issues bus RFP",
      "The board in Ontario seeks bids for student transportation.",
    );
    expect(canada.fed).toEqual([]);
    expect(canada.status).toBe("unresolved");
    expect(canada.signals[0].buying_intent).toBe("none");
  });

  it("origin_district_id resolves directly", async () => {
    const signals = await analyzeText(db, { ...article("Board meeting recap", "The board met."), origin_district_id: ids.omaha });
    expect(signals[0].district_id).toBe(ids.omaha);
    expect(signals[0].entity_match_confidence).toBe(0.99);
  });

  it("analyzeArticle writes signals and timeline events, and re-analysis replaces them", async () => {
    const articleId = await insert(db, "articles", {
      url: "https://news.example.com/omaha-rfp",
      title: "Omaha Public Schools issues RFP for student information system",
      domain: "news.example.com",
      text: "OMAHA, Neb. — Omaha Public Schools released a request for proposals on May 1. Proposals are due June 3.",
      published_at: PUB,
      data_source: "feed",
      origin: "feed",
    });
    expect(await analyzeArticle(db, articleId)).toEqual({ signals: 1 });
    const signals = await db.query<Record<string, unknown>>("SELECT * FROM signals WHERE article_id = $1", [articleId]);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      signal_type: "rfp_released",
      buying_intent: "high",
      district_id: ids.omaha,
      entity_resolution_status: "resolved",
      data_source: NEWS_SOURCE,
    });
    const events = await db.query<Record<string, unknown>>("SELECT * FROM timeline_events WHERE source_url = $1", [
      "https://news.example.com/omaha-rfp",
    ]);
    expect(events).toMatchObject([{ entity_type: "district", entity_id: ids.omaha, event_type: "rfp_posted", data_source: NEWS_SOURCE }]);
    const [{ analyzed_at }] = await db.query<{ analyzed_at: Date | null }>("SELECT analyzed_at FROM articles WHERE id = $1", [articleId]);
    expect(analyzed_at).not.toBeNull();

    // Re-analysis after the text changed: the old signal and event are gone, the new ones are there.
    await db.query("UPDATE articles SET title = $2, text = $3 WHERE id = $1", [
      articleId,
      "Omaha superintendent to retire",
      "OMAHA, Neb. — The Omaha Public Schools superintendent will retire in June; the board starts a search.",
    ]);
    await analyzeArticle(db, articleId);
    const after = await db.query<{ signal_type: string }>("SELECT signal_type FROM signals WHERE article_id = $1", [articleId]);
    expect(after.map((s) => s.signal_type)).toEqual(["leadership_change"]);
    const eventsAfter = await db.query<{ event_type: string }>("SELECT event_type FROM timeline_events WHERE source_url = $1", [
      "https://news.example.com/omaha-rfp",
    ]);
    expect(eventsAfter.map((e) => e.event_type)).toEqual(["leadership_change"]);
  });
});
