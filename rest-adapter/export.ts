/**
 * CSV and NDJSON exports of a list endpoint (docs/exports.md): the route's own GraphQL operation run page by
 * page (limit/offset per chunk), each page written to the response as it arrives, so memory stays flat in the
 * number of rows and the filters, sort and gating are exactly the JSON list's.
 */
import { once } from "node:events";
import type { Request, Response } from "express";
import {
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLInterfaceType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { fromGraphQLError, httpError, type ErrorBody } from "../src/graphql/errors";
import type { RestAdapterHost } from "../src/graphql/execution";
import { snake } from "../src/graphql/naming";
import { logger } from "../src/logger";
import { executeRoute } from "./executor";

export type Format = "json" | "csv" | "ndjson";

type Plan = keyof NonNullable<RestAdapterHost["exports"]>["rowCaps"];

export const MEDIA: Record<Format, string> = { json: "application/json", csv: "text/csv", ndjson: "application/x-ndjson" };

/**
 * The format an `Accept` header asks for among those offered (JSON first, so it wins ties and is the default),
 * or null when it accepts none of them (406). Each offered type takes the quality of the most specific range
 * matching it (RFC 9110 12.5.1): `*\/*` alone is JSON, `text/csv;q=0.5, *\/*;q=0.1` is CSV.
 */
export function negotiate(accept: string | undefined, offered: Format[]): Format | null {
  if (!accept?.trim()) return offered[0];
  const ranges = accept.split(",").map((part) => {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return { range: range.trim(), q: q === undefined ? 1 : Number(q) };
  });
  let best: { format: Format; q: number; specificity: number } | undefined;
  for (const format of offered) {
    const [type] = MEDIA[format].split("/");
    let match: { q: number; specificity: number } | undefined;
    for (const { range, q } of ranges) {
      const specificity = range === MEDIA[format] ? 2 : range === `${type}/*` ? 1 : range === "*/*" ? 0 : -1;
      if (specificity >= 0 && (!match || specificity > match.specificity)) match = { q: Number.isFinite(q) ? q : 0, specificity };
    }
    if (!match || match.q <= 0) continue;
    if (!best || match.q > best.q || (match.q === best.q && match.specificity > best.specificity)) best = { format, ...match };
  }
  return best?.format ?? null;
}

/** A route that can be exported: a GET whose operation pages (`$limit`, `$offset`) and whose result is `{ data, pagination }`. */
export interface ExportPlan {
  /** Dotted column names (snake_case response keys) and their paths in a record, in the operation's selection order. */
  columns: { name: string; path: string[] }[];
  /** The list's largest page (the `limit` argument's declared maximum). */
  maxLimit: number;
  /** The file name's stem: the path's last segment (`districts`). */
  name: string;
}

type Composite = GraphQLObjectType | GraphQLInterfaceType;

/**
 * The export plan of a route, or undefined when it is not a paged list. Columns come from the operation's
 * selection of the record type (fragments expanded), not from a row: stable whatever the data. A nested
 * object becomes dotted columns; a list is one cell.
 */
export function exportPlan(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  path: string,
  select: string[],
): ExportPlan | undefined {
  const vars = new Set(operation.variableDefinitions?.map((v) => v.variable.name.value));
  if (!vars.has("limit") || !vars.has("offset") || select.length !== 1) return undefined;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const fieldsOf = (
    set: SelectionSetNode,
    parent: Composite,
  ): { key: string; field: GraphQLField<unknown, unknown>; set?: SelectionSetNode }[] => {
    const out: { key: string; field: GraphQLField<unknown, unknown>; set?: SelectionSetNode }[] = [];
    const seen = new Set<string>();
    const walk = (s: SelectionSetNode, type: Composite) => {
      for (const selection of s.selections) {
        if (selection.kind === Kind.FIELD) {
          const field = type.getFields()[selection.name.value];
          const key = snake(selection.alias?.value ?? selection.name.value);
          if (!field || seen.has(key)) continue;
          seen.add(key);
          out.push({ key, field, set: selection.selectionSet });
        } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
          const fragment = fragments.get(selection.name.value);
          if (fragment) walk(fragment.selectionSet, (schema.getType(fragment.typeCondition.name.value) as Composite) ?? type);
        } else {
          const condition = selection.typeCondition ? (schema.getType(selection.typeCondition.name.value) as Composite) : type;
          walk(selection.selectionSet, condition);
        }
      }
    };
    walk(set, parent);
    return out;
  };
  const root = fieldsOf(operation.selectionSet, schema.getQueryType()!).find((f) => f.key === select[0]);
  if (!root?.set) return undefined;
  const maxLimit = (root.field.args.find((a) => a.name === "limit")?.extensions?.range as { maximum?: number } | undefined)?.maximum;
  const page = getNamedType(root.field.type);
  if (!maxLimit || !isObjectType(page)) return undefined;
  const parts = fieldsOf(root.set, page);
  const data = parts.find((f) => f.key === "data");
  if (!data?.set || !parts.some((f) => f.key === "pagination")) return undefined;
  const columns: ExportPlan["columns"] = [];
  const collect = (set: SelectionSetNode, type: Composite, prefix: string[]) => {
    for (const { key, field, set: inner } of fieldsOf(set, type)) {
      const unwrapped = isNonNullType(field.type) ? field.type.ofType : field.type;
      const named = getNamedType(field.type);
      // A nested object spreads into dotted columns; a list (or a scalar) is one cell.
      if (inner && !isListType(unwrapped) && (isObjectType(named) || isInterfaceType(named))) collect(inner, named, [...prefix, key]);
      else columns.push({ name: [...prefix, key].join("."), path: [...prefix, key] });
    }
  };
  collect(data.set, getNamedType(data.field.type) as Composite, []);
  return { columns, maxLimit, name: path.split("/").filter(Boolean).pop() ?? "export" };
}

/** Cells an editor would evaluate as a formula (OWASP's CSV injection list): prefixed with a `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell (RFC 4180): null empty, a list of scalars `;`-joined, other lists and objects JSON, text formula-guarded, quoted when needed. */
export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = "";
  else if (typeof value === "string") text = FORMULA_START.test(value) ? `'${value}` : value;
  else if (typeof value === "number" || typeof value === "boolean") text = String(value);
  else if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object"))
    return csvCell(value.map((v) => (v === null ? "" : String(v))).join(";"));
  else text = JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (cells: string[]): string => `${cells.join(",")}\r\n`;

function valueAt(record: unknown, path: string[]): unknown {
  let value = record;
  for (const key of path) value = value === null || typeof value !== "object" ? undefined : (value as Record<string, unknown>)[key];
  return value;
}

interface Page {
  data: unknown[];
  pagination: { total?: number | null };
}

/**
 * Streams the export. The first page is read before anything is written, so every error up to there (a bad
 * filter, the time budget) is the generic JSON error with its status; its `total` decides the row count and
 * truncation, sent as headers. Later pages each get a page's time budget (`contextFor(..., "fresh")`); the client
 * closing the connection aborts the page being read and no further page is asked for.
 */
export async function streamExport(
  host: RestAdapterHost,
  document: DocumentNode,
  plan: ExportPlan,
  format: Exclude<Format, "json">,
  vars: Record<string, unknown>,
  req: Request,
  res: Response,
  send: (body: ErrorBody) => void,
): Promise<void> {
  const viewerPlan = (res.locals.viewer as { plan?: Plan } | undefined)?.plan ?? "free";
  const cap = host.exports?.rowCaps[viewerPlan] ?? 1_000;
  const chunk = Math.min(plan.maxLimit, host.exports?.chunkRows || plan.maxLimit);
  // `limit` caps the export's rows (any positive count up to the plan's cap); `offset` is where it starts.
  const { limit: asked, offset: start, ...filters } = vars;
  if (asked !== undefined && asked !== null && (!Number.isInteger(asked) || (asked as number) < 1))
    return send(httpError("BAD_USER_INPUT", "limit must be a positive integer"));
  const from = typeof start === "number" ? start : 0;
  const read = async (offset: number, size: number, fresh: boolean) => {
    const result = await executeRoute(host, document, { ...filters, limit: size, offset }, req, res, fresh ? "fresh" : undefined);
    if (result.errors?.length) return { error: fromGraphQLError(result.errors[0]) };
    return { page: (result.data?.[Object.keys(result.data)[0]] ?? null) as Page | null };
  };
  const wanted = Math.min(cap, (asked as number | undefined) ?? Infinity);
  const first = await read(from, Math.min(chunk, wanted), false);
  if (res.headersSent) return; // answered at the deadline already
  if (first.error) return send(first.error);
  if (!first.page) return send(httpError("NOT_FOUND", "not found"));
  const available = Math.max(0, (first.page.pagination.total ?? first.page.data.length) - from);
  const rows = Math.min(available, wanted);
  const stamp = new Date().toISOString().slice(0, 10);
  res.writeHead(200, {
    "Content-Type": `${MEDIA[format]}; charset=utf-8`,
    "Content-Disposition": `attachment; filename="${plan.name}-${stamp}.${format === "csv" ? "csv" : "ndjson"}"`,
    "Cache-Control": "no-store",
    "X-Export-Rows": String(rows),
    "X-Export-Total": String(available),
    "X-Export-Row-Cap": String(cap),
    // Counted first (the first page's total), so truncation is known before the first byte.
    "X-Export-Truncated": String(available > rows && rows === cap),
  });
  const line = (record: unknown) =>
    format === "csv" ? csvLine(plan.columns.map((c) => csvCell(valueAt(record, c.path)))) : `${JSON.stringify(record)}\n`;
  const write = async (text: string) => {
    // Back-pressure: wait for the socket to drain (or close) before reading the next page.
    if (!res.write(text) && !res.destroyed) await Promise.race([once(res, "drain"), once(res, "close")]);
  };
  if (format === "csv") await write(csvLine(plan.columns.map((c) => csvCell(c.name))));
  let sent = 0;
  let page: Page | null = first.page;
  for (;;) {
    const records = page.data.slice(0, rows - sent);
    if (records.length) await write(records.map(line).join(""));
    sent += records.length;
    // The list ended early (records removed since the count), the count is reached, or nobody reads any more.
    if (sent >= rows || page.data.length === 0 || res.destroyed) break;
    // A turn of the event loop: the embedded database answers through microtasks, and a closed socket is only seen here.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (res.destroyed) break;
    const next = await read(from + sent, Math.min(chunk, rows - sent), true);
    if (next.error || !next.page) {
      if (!res.destroyed && next.error?.statusCode !== 499)
        logger.error("export ended by an error", { requestId: res.locals.requestId, rows: sent, error: next.error?.message });
      // No final chunk: the client sees an incomplete transfer, never a short file that looks whole.
      return void res.destroy();
    }
    page = next.page;
  }
  res.end();
}
