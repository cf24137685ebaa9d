/**
 * Childcare center search and lookup. A list is one statement (filters, page and total); people are
 * batched by a loader over every center asked for.
 */
import type { Db } from "../../db/client";
import { SqlParams } from "../../db/sql";
import { BadRequestError } from "../../graphql/errors";
import type { Pagination } from "../common/common.type";
import { checkPaging, checkRange, checkState, checkText, containsPattern } from "../common/list-query";
import { checkList, countyClause, pagedSql, pageOf, sortClause } from "../common/paged-query";
import { ChildcareStatusFilter, type ChildcareFilter, type ChildcareOrderField } from "./childcare.inputs";
import { ChildcareCenter, ChildcarePerson } from "./childcare.type";

export const CHILDCARE_MAX_LIMIT = 200;
/** The `chain` filter's word for centers in no chain. */
export const INDEPENDENT = "independent";

export interface ChildcareListArgs {
  filter?: ChildcareFilter | null;
  orderBy?: ChildcareOrderField | null;
  orderAscending?: boolean | null;
  limit?: number | null;
  offset?: number | null;
}

export interface ChildcareCenterPage {
  data: ChildcareCenter[];
  pagination: Pagination;
}

const SELECT = `SELECT c.id, c.slug, c.name, c.state, c.license_number, c.source, c.physical_address, c.physical_city, c.physical_zip,
    c.county, c.latitude, c.longitude, c.phone, c.email, c.website_url, c.license_type, c.license_type_raw, c.license_status,
    c.license_status_raw, c.first_licensed, c.license_expires, c.capacity, c.capacity_by_age, c.ages_served, c.licensee_name,
    c.chain, c.director_name, c.quality_rating, c.accepts_subsidy, c.district_operated, c.source_url, c.source_version,
    c.operator_id, c.district_id, c.created_at, c.updated_at
  FROM childcare_centers c`;

const present = (row: Record<string, unknown>): ChildcareCenter => Object.setPrototypeOf(row, ChildcareCenter.prototype) as ChildcareCenter;

export async function loadChildcareCentersByIds(db: Db, ids: readonly string[]): Promise<ChildcareCenter[]> {
  const rows = await db.query<Record<string, unknown>>(`${SELECT} WHERE c.id = ANY($1::uuid[])`, [ids]);
  return rows.map(present);
}

export async function loadChildcarePeople(db: Db, centerIds: readonly string[]): Promise<(ChildcarePerson & { center_id: string })[]> {
  return db.query<ChildcarePerson & { center_id: string }>(
    `SELECT id, center_id, name, title, role FROM childcare_people WHERE center_id = ANY($1::uuid[]) ORDER BY center_id, name, id`,
    [centerIds],
  );
}

const ORDER_COLUMNS: Record<ChildcareOrderField, string> = {
  name: "name",
  state: "state",
  capacity: "capacity",
  license_type: "license_type",
  chain: "chain",
  first_licensed: "first_licensed",
  created_at: "created_at",
  updated_at: "updated_at",
};

function order(orderBy: ChildcareOrderField | null | undefined, ascending: boolean | null | undefined) {
  return (alias: string) => sortClause(alias, ORDER_COLUMNS[orderBy ?? ("name" as ChildcareOrderField)], ascending);
}

function whereClauses(filter: ChildcareFilter, p: SqlParams): string[] {
  const w: string[] = [];
  if (filter.state != null) w.push(`c.state = ANY(${p.add(checkList("state", filter.state, checkState))}::text[])`);
  if (filter.county != null) w.push(countyClause("c.county", filter.county, p));
  if (filter.city != null) {
    const cities = checkList("city", filter.city, (c) => checkText("city", c).toLowerCase());
    w.push(`lower(c.physical_city) = ANY(${p.add(cities)}::text[])`);
  }
  if (filter.licenseType != null) {
    if (!filter.licenseType.length) throw new BadRequestError("license_type must be a non-empty comma-separated list");
    w.push(`c.license_type = ANY(${p.add(filter.licenseType)}::text[])`);
  }
  const status = filter.status ?? ChildcareStatusFilter.active;
  if (status !== ChildcareStatusFilter.all) w.push(`c.license_status = ${p.add(status)}`);
  checkRange("capacity", filter.minCapacity, filter.maxCapacity, true);
  if (filter.minCapacity != null) w.push(`c.capacity >= ${p.add(filter.minCapacity)}`);
  if (filter.maxCapacity != null) w.push(`c.capacity <= ${p.add(filter.maxCapacity)}`);
  if (filter.chain != null) {
    const keys = checkList("chain", filter.chain, (k) => checkText("chain", k).toLowerCase());
    const chains = keys.filter((k) => k !== INDEPENDENT);
    const any: string[] = [];
    if (chains.length) any.push(`c.chain = ANY(${p.add(chains)}::text[])`);
    if (chains.length < keys.length) any.push(`c.chain IS NULL`);
    w.push(`(${any.join(" OR ")})`);
  }
  if (filter.acceptsSubsidy != null) w.push(`c.accepts_subsidy = ${p.add(filter.acceptsSubsidy)}`);
  if (filter.districtOperated != null) w.push(`c.district_operated = ${p.add(filter.districtOperated)}`);
  if (filter.search != null) {
    const text = checkText("search", filter.search);
    const pattern = p.add(containsPattern(text));
    w.push(`(c.name ILIKE ${pattern} OR c.licensee_name ILIKE ${pattern} OR upper(c.license_number) = ${p.add(text.toUpperCase())})`);
  }
  if (filter.ids != null) {
    if (!filter.ids.length) throw new BadRequestError("ids must be a non-empty comma-separated list");
    w.push(`c.id = ANY(${p.add(filter.ids)}::uuid[])`);
  }
  return w;
}

export async function listChildcareCenters(db: Db, args: ChildcareListArgs): Promise<ChildcareCenterPage> {
  const limit = args.limit ?? 50;
  const offset = args.offset ?? 0;
  checkPaging(limit, offset, CHILDCARE_MAX_LIMIT);
  const p = new SqlParams();
  const where = whereClauses(args.filter ?? {}, p);
  const sql = pagedSql({
    filtered: `${SELECT} ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`,
    order: order(args.orderBy, args.orderAscending),
    limit: p.add(limit),
    offset: p.add(offset),
  });
  return pageOf(await db.query<Record<string, unknown>>(sql, p.values), limit, offset, present);
}
