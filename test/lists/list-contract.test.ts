/**
 * The list contract, run against every list from its definition (defineList): the filter input type and the
 * REST parameters follow from the declarations (no drift), every typed filter parameter answers a 400 naming
 * it for a bad value, min/max pairs refuse min > max, paging bounds are 400s, every sort breaks ties by
 * ascending id with nulls last in both directions, pages concatenate to the whole order, and a page costs
 * one statement (plus the API key's) whatever its size.
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputType,
} from "graphql";
import { ASSOCIATION_LIST } from "../../src/features/catalogue/associations/association.inputs";
import { CHILDCARE_LIST } from "../../src/features/catalogue/childcare/childcare.inputs";
import { CONTACT_LIST } from "../../src/features/catalogue/contacts/contact.inputs";
import { DISTRICT_LIST } from "../../src/features/catalogue/districts/district.inputs";
import { HEAD_START_LIST } from "../../src/features/catalogue/head-start/head-start.inputs";
import { OPERATOR_LIST } from "../../src/features/catalogue/operators/operator.inputs";
import { SCHOOL_LIST } from "../../src/features/catalogue/schools/school.inputs";
import { FEED_LIST } from "../../src/features/research/news/news.inputs";
import { OPPORTUNITY_LIST } from "../../src/features/research/opportunities/opportunity.inputs";
import { insertArticle } from "../news/support/articles";
import { snake } from "../../src/graphql/naming";
import type { Db } from "../../src/db/client";
import { insertContactCatalogue } from "../contacts/fixtures";
import { createTestApp, type TestApp } from "../support/app";
import { insertCenter, insertHeadStart, insertOperator } from "../support/early-childhood-factories";
import { insert, insertDistrict } from "../support/factories";
import { insertSchool } from "../support/school-factories";
import { countStatements } from "../support/statements";

interface ListCase {
  list: { name: string; fields: Record<string, unknown>; orderColumns: Record<string, string>; maxLimit: number };
  path: string;
  /** Parameters every request of the case adds (the whole set: inactive rows too, every duplicate). */
  base?: string;
  /** Rows with ties on every sort column (and a few without). */
  seed: (db: Db, orgs: TestApp["orgs"]) => Promise<unknown>;
  /** A list with one order and no order parameters (the signals feed): its column and direction. */
  fixedOrder?: { column: string; ascending: boolean };
}

/** Three rows alike in every sort column, two others. */
const rows = async (insertOne: (values: Record<string, unknown>, n: number) => Promise<unknown>) => {
  for (let n = 0; n < 5; n++) await insertOne(n < 3 ? {} : { name: `Other ${n}` }, n);
};
const SAME_TIME = { created_at: "2026-01-01T00:00:00Z" };

const LISTS: ListCase[] = [
  {
    list: DISTRICT_LIST,
    path: "/districts",
    seed: (db) =>
      rows((v) =>
        insertDistrict(db, { name: "Tie District", student_count: 10, ...SAME_TIME, last_updated_at: SAME_TIME.created_at, ...v }),
      ),
  },
  {
    list: SCHOOL_LIST,
    path: "/schools",
    seed: (db) =>
      rows((v) => insertSchool(db, { name: "Tie School", student_count: 10, ...SAME_TIME, last_updated_at: SAME_TIME.created_at, ...v })),
  },
  { list: CONTACT_LIST, path: "/contacts", base: "unique=false", seed: (db) => insertContactCatalogue(db) },
  {
    list: HEAD_START_LIST,
    path: "/head-start-programs",
    base: "status=all",
    seed: (db) =>
      rows((v) =>
        insertHeadStart(db, { name: "Tie Program", state: "NE", funded_slots: 20, ...SAME_TIME, updated_at: SAME_TIME.created_at, ...v }),
      ),
  },
  {
    list: CHILDCARE_LIST,
    path: "/childcare-centers",
    base: "status=all",
    seed: (db) =>
      rows((v) =>
        insertCenter(db, { name: "Tie Center", state: "NE", capacity: 20, ...SAME_TIME, updated_at: SAME_TIME.created_at, ...v }),
      ),
  },
  {
    list: OPERATOR_LIST,
    path: "/operators",
    seed: (db) =>
      rows((v) =>
        insertOperator(db, { name: "Tie Operator", kind: "company", state: "NE", ...SAME_TIME, updated_at: SAME_TIME.created_at, ...v }),
      ),
  },
  {
    list: ASSOCIATION_LIST,
    path: "/associations",
    seed: (db) =>
      rows((v, n) =>
        insert(db, "associations", {
          slug: `tie-association-${n}`,
          name: "Tie Association",
          kind: "other",
          state: "NE",
          data_source: "test",
          ...SAME_TIME,
          ...v,
        }),
      ),
  },
  {
    list: FEED_LIST,
    path: "/signals",
    fixedOrder: { column: "published_at", ascending: false },
    seed: async (db) => {
      const district = await insertDistrict(db, { name: "Feed District", state: "NE" });
      const signal = { district_id: district, signal_type: "facility_bond" };
      // Three stories published at the same instant, an earlier one, and one without a date.
      const tie = "2026-11-20T12:00:00.000Z";
      for (const [n, published] of [tie, tie, tie, "2026-10-01T00:00:00.000Z", null].entries())
        await insertArticle({ db }, { title: `Feed story ${n}`, published_at: published, ingested_at: "2026-11-21T00:00:00.000Z" }, [
          signal,
        ]);
    },
  },
  {
    list: OPPORTUNITY_LIST,
    path: "/opportunities",
    // The caller's (enterprise) organization's rows: three alike in every sort column, two others.
    seed: async (db, orgs) => {
      const district = await insertDistrict(db, { name: "Opportunity District", state: "NE" });
      const project = await insert(db, "projects", { organization_id: orgs.enterprise, name: "Contract project" });
      for (let n = 0; n < 5; n++)
        await insert(db, "opportunities", {
          organization_id: orgs.enterprise,
          project_id: project,
          entity_type: "district",
          district_id: district,
          dedupe_key: `district:${district}:${n}`,
          title: `Opportunity ${n}`,
          confidence: n < 3 ? 0.5 : n / 10,
          event_date: n < 3 ? "2026-10-01" : null,
          window_ends_on: n < 3 ? "2026-12-01" : null,
          data_source: "test",
          ...SAME_TIME,
        });
    },
  },
];

/** A value the parameter's type refuses, as a query-string value; none for free text. */
function badValue(type: GraphQLInputType): string | undefined {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return badValue(inner.ofType);
  if (isEnumType(inner)) return "no_such_value";
  if (inner === GraphQLInt) return "1.5";
  if (inner === GraphQLFloat) return "many";
  if (inner === GraphQLBoolean) return "maybe";
  if (inner === GraphQLString) return undefined;
  return "not-a-value"; // UUID, DateTimeISO, Date
}

type Row = Record<string, unknown> & { id: string };

// One app and database for the seven lists: each list's seed writes its own table (and the parents it needs), and
// every check below holds whatever other rows a list sees. An app per list was a sixth of this file's time.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (const { seed } of LISTS) await seed(t.db, t.orgs);
});
afterAll(() => t?.close());

describe.each(LISTS)("list contract: $path", ({ list, path, base, fixedOrder }) => {
  const url = (query = "") => `/api/v1${path}?${[base, query].filter(Boolean).join("&")}`;
  const fields = Object.keys(list.fields);

  it("the filter input type and the REST parameters are the declared filters, in order", async () => {
    const type = t.engine.schema.getType(`${list.name}Filter`);
    if (!isInputObjectType(type)) throw new Error(`${list.name}Filter is not an input type`);
    expect(Object.keys(type.getFields())).toEqual(fields);
    const res = await t.get(url("no_such_parameter=1")).expect(400);
    const allowed = String(res.body.message).split("allowed: ")[1].split(", ");
    expect(allowed.slice(0, fields.length)).toEqual(fields.map(snake));
  });

  it("answers a 400 naming the parameter for every filter value its type refuses", async () => {
    const type = t.engine.schema.getType(`${list.name}Filter`);
    if (!isInputObjectType(type)) throw new Error(`${list.name}Filter is not an input type`);
    for (const field of Object.values(type.getFields())) {
      const bad = badValue(field.type);
      if (bad === undefined) continue;
      const param = snake(field.name);
      const res = await t.get(url(`${param}=${encodeURIComponent(bad)}`));
      expect({ param, status: res.status, message: String(res.body.message).split(" ")[0] }).toEqual({
        param,
        status: 400,
        message: param,
      });
    }
  });

  it("refuses min > max for every range", async () => {
    const mins = fields.filter((f) => /^min[A-Z]/.test(f) && fields.includes(`max${f.slice(3)}`));
    expect(mins.length).toBe(fields.filter((f) => /^max[A-Z]/.test(f)).length);
    for (const min of mins) {
      const name = snake(min.slice(3));
      const res = await t.get(url(`min_${name}=5&max_${name}=1`)).expect(400);
      expect(res.body.message).toBe(`min_${name} must not exceed max_${name}`);
    }
  });

  it("refuses a limit outside 1..max and a negative offset, and serves the maximum", async () => {
    const limitMessage = `limit must be an integer from 1 to ${list.maxLimit}`;
    expect((await t.get(url("limit=0")).expect(400)).body.message).toBe(limitMessage);
    expect((await t.get(url(`limit=${list.maxLimit + 1}`)).expect(400)).body.message).toBe(limitMessage);
    expect((await t.get(url("offset=-1")).expect(400)).body.message).toBe("offset must be an integer >= 0");
    const res = await t.get(url(`limit=${list.maxLimit}`)).expect(200);
    expect(res.body.pagination).toMatchObject({ limit: list.maxLimit, offset: 0, total: res.body.data.length, has_more: false });
  });

  it.each([true, false])(
    "sorts by every sort field (ascending %s): nulls last, ties by ascending id, pages concatenate",
    async (ascending) => {
      // A list with one order is checked in that order's direction only (it takes no order parameters).
      const orders: [string | undefined, string][] = fixedOrder
        ? ascending === fixedOrder.ascending
          ? [[undefined, fixedOrder.column]]
          : []
        : Object.entries(list.orderColumns);
      for (const [sort, column] of orders) {
        const query = sort ? `order_by=${sort}&order_ascending=${ascending}` : "";
        const all: Row[] = (await t.get(url(`${query}&limit=${list.maxLimit}`)).expect(200)).body.data;
        expect(all.length).toBeGreaterThanOrEqual(5);
        if (fixedOrder) expect(Object.keys(all[0]!)).toContain(column); // its one order is checked row by row
        // A sort column the REST record does not serve (created_at of some) is checked by the paging alone.
        for (let n = 1; n < all.length && column in all[n]; n++) {
          const [a, b] = [all[n - 1][column], all[n][column]];
          if (a === null) expect({ sort, after: "null", next: b }).toEqual({ sort, after: "null", next: null });
          if (JSON.stringify(a) === JSON.stringify(b))
            expect({ sort, ascendingIds: all[n - 1].id < all[n].id }).toEqual({ sort, ascendingIds: true });
        }
        const paged: Row[] = [];
        for (let offset = 0; offset < all.length; offset += 2)
          paged.push(...(await t.get(url(`${query}&limit=2&offset=${offset}`)).expect(200)).body.data);
        expect(paged.map((r) => r.id)).toEqual(all.map((r) => r.id));
      }
    },
  );

  it("runs one statement per page (and the API key's), whatever the page size", async () => {
    const count = async (query: string) => {
      await t.get(url(query)).expect(200); // warm-up outside the measurement
      return countStatements(t.db, () => t.get(url(query)).expect(200));
    };
    expect(await count("limit=1")).toBe(2);
    expect(await count(`limit=${list.maxLimit}`)).toBe(2);
    expect(await count("limit=1&offset=1000")).toBe(2); // past the end: the total still comes with it
  });
});
