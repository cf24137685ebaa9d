/**
 * Issue 22, entity resolution rules beyond the basics of signals-analysis.test.ts, each against a small catalogue
 * built with factories so that the rule, and only the rule, decides: directory name forms (county districts named
 * by the county alone, "CO", Colorado's "10Jt-R", Illinois' "HSD"), County vs City, an exact name before fuzzy ones.
 */
import { analyzeText } from "../../src/features/research/news/analysis";
import { nameKey } from "../../src/features/research/news/analysis/resolve";
import { createTestDb, type TestDb } from "../support/db";
import { insertDistrict } from "../support/factories";

const PUB = new Date("2024-05-10T12:00:00Z");

describe("entity resolution rules", () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDb();
    const d = (values: Record<string, unknown>) => insertDistrict(db, { district_type_code: "1", ...values });
    // County districts named by the county alone or with "CO"; a City district of the same name.
    await d({ fed_id: "3200090", name: "Douglas", state: "NV", physical_city: "Minden", website_url: "http://www.dcsd.k12.nv.us" });
    await d({ fed_id: "2801860", name: "HANCOCK CO SCHOOL DIST", state: "MS", physical_city: "KILN" });
    await d({ fed_id: "5101440", name: "Franklin County Public Schools", state: "VA", physical_city: "Rocky Mount" });
    await d({ fed_id: "5101410", name: "Franklin City Public Schools", state: "VA", physical_city: "Franklin" });
    await d({ fed_id: "1201320", name: "MONROE", state: "FL", physical_city: "KEY WEST" });
    await d({ fed_id: "2921210", name: "MONROE CITY R-I", state: "MO", physical_city: "Monroe City" });
    await d({ fed_id: "0802400", name: "Bayfield School District No. 10Jt-R", state: "CO", physical_city: "BAYFIELD" });
    await d({ fed_id: "1716950", name: "Glenbrook HSD 225", state: "IL", physical_city: "Glenview" });
    // Exact name against a fuzzy neighbour that has more context (its city is named).
    await d({ fed_id: "0699901", name: "Alta Loma Elementary", state: "CA", physical_city: "Alta Loma" });
    await d({
      fed_id: "0699902",
      name: "Alta Lomas Elementary",
      state: "CA",
      physical_city: "Rancho",
      website_url: "https://www.altalomas.example.org/",
    });
  });
  afterAll(() => db.close());

  const fed = async (title: string, text: string, domain = "news.example.com") => {
    const signals = await analyzeText(db, { title, text, url: `https://${domain}/a`, domain, published_at: PUB });
    return { fed: [...new Set(signals.map((s) => s.district_fed_id).filter(Boolean))], signal: signals[0] };
  };

  it("directory name forms: CO is County, 10Jt and R-I are numbers, HSD is a kind word", () => {
    expect(nameKey("HANCOCK CO SCHOOL DIST")).toMatchObject({ core: "hancock county", loose: "hancock" });
    expect(nameKey("Bayfield School District No. 10Jt-R")).toMatchObject({ core: "bayfield", numbers: ["10"] });
    expect(nameKey("Glenbrook HSD 225")).toMatchObject({ core: "glenbrook", numbers: ["225"] });
    expect(nameKey("MONROE CITY R-I")).toMatchObject({ core: "monroe city", numbers: ["1"] });
  });

  it('a county district the directory names by the county alone: "Douglas County School District" in Nevada', async () => {
    const r = await fed("Douglas County board approves contract", "The Douglas County School District board in Nevada approved it.");
    expect(r.fed).toEqual(["3200090"]);
    expect((await fed("Hancock County Schools approve budget", "The board in Mississippi voted 5-0.")).fed).toEqual(["2801860"]);
  });

  it("County and City disagree: Franklin County is not Franklin City, and a bare county name is preferred to a City", async () => {
    expect((await fed("Franklin County Public Schools names chief", "The Virginia board voted.")).fed).toEqual(["5101440"]);
    expect((await fed("Franklin City Public Schools names chief", "The Virginia board voted.")).fed).toEqual(["5101410"]);
    // "Monroe County schools" in Florida and Missouri both named: MONROE (FL) fits, MONROE CITY (MO) says City.
    const r = await fed("Districts short of teachers", "In Missouri, hiring is harder. Monroe County schools in Florida raised pay.");
    expect(r.fed).toEqual(["1201320"]);
  });

  it("Colorado's joint-district number and Illinois' HSD do not hide the name", async () => {
    expect((await fed("Committee recommends math program", "The Bayfield school board in Colorado will vote.")).fed).toEqual(["0802400"]);
    expect((await fed("Bond appears to pass", "Glenbrook High School District 225 in Illinois passed $94 million.")).fed).toEqual([
      "1716950",
    ]);
  });

  it("a candidate matching the whole normalised name wins over a fuzzy one with more context", async () => {
    // Without the rule Alta Lomas (a trigram match published on its own domain, its city named) would lead.
    const r = await fed(
      "Alta Loma Elementary School District adopts budget",
      "The California board met in Rancho.",
      "www.altalomas.example.org",
    );
    expect(r.fed).toEqual(["0699901"]);
  });
});
