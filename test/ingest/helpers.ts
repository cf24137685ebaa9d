/**
 * Shared by the ingest tests: malformed copies of the real data files, and a fingerprint of the tables
 * an ingestor writes (row count and newest row version) to prove a refused file committed nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { packageRoot } from "../../src/db/package-root";
import { BadRequestError } from "../../src/graphql/errors";
import { type IngestSummary, runIngest } from "../../src/ingest";
import type { TestDb } from "../support/db";
import { escapeRegExp } from "../../src/features/kits/common/text";

export const INGEST_TABLES = [
  "districts",
  "schools",
  "district_annual_stats",
  "school_annual_stats",
  "operators",
  "head_start_programs",
  "childcare_centers",
  "ingest_runs",
] as const;

export const dataFile = (relative: string): string => path.join(packageRoot, relative);

/**
 * What any committed write to the ingest tables changes: each table's row count and the newest transaction id
 * among its rows (`xmin`). An insert or update leaves a row version with a newer xmin, a delete lowers the count,
 * a delete and an insert raise the xmin. Reading xmin costs a scan, not the text and hash of every row (the
 * md5 of every row this replaced took seconds per call on the loaded catalogue, twice per malformed file).
 */
export async function fingerprint(db: TestDb): Promise<Record<string, { n: number; h: string }>> {
  const out: Record<string, { n: number; h: string }> = {};
  for (const table of INGEST_TABLES) {
    const [row] = await db.query<{ n: number; h: string }>(
      `SELECT count(*)::int AS n, coalesce(max(x.xmin::text::bigint), 0)::text AS h FROM ${table} x`,
    );
    out[table] = row!;
  }
  return out;
}

export async function count(db: TestDb, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) x`, params);
  return row!.n;
}

export interface MalformedCopies {
  wrongHeader: string;
  truncated: string;
  badUtf8: string;
  /** 1-based line numbers the errors must name. */
  truncatedLine: number;
  badUtf8Line: number;
  /** The temp folder holding the copies. */
  dir: string;
}

/**
 * Three broken copies of a real file, each with up to `rows` data rows so several batches are written
 * before the problem is met (the rollback is what the test checks):
 * - the header with `column` renamed;
 * - the last row cut after its second field;
 * - a Latin-1 byte (0xE9, "é" in Windows-1252) inside a late row.
 * Gzipped files give gzipped copies, so the gunzip path is exercised too.
 */
export function malformedCopies(relative: string, column: string, rows = 1200): MalformedCopies {
  const source = dataFile(relative);
  const gz = source.endsWith(".gz");
  const raw = fs.readFileSync(source);
  const text = (gz ? zlib.gunzipSync(raw) : raw).toString("utf8");
  const lines = text.split("\n").filter((line, i, all) => line !== "" || i < all.length - 1);
  const head = lines.slice(0, Math.min(lines.length, rows + 1));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "edm-ingest-"));
  const base = path.basename(source).replace(/\.csv(\.gz)?$/, "");
  const write = (name: string, content: Buffer) => {
    const file = path.join(dir, `${base}.${name}.csv${gz ? ".gz" : ""}`);
    fs.writeFileSync(file, gz ? zlib.gzipSync(content) : content);
    return file;
  };

  const header = head[0]!.split(",");
  const index = header.findIndex(
    (h) =>
      h
        .replace(/^\uFEFF/, "")
        .replace(/"/g, "")
        .trim() === column,
  );
  if (index < 0) throw new Error(`${relative}: no header column ${column}`);
  header[index] = header[index]!.replace(column, `${column}_RENAMED`);
  const wrongHeader = write("wrong-header", Buffer.from([header.join(","), ...head.slice(1)].join("\n") + "\n"));

  const last = head[head.length - 1]!;
  const truncated = write("truncated", Buffer.from([...head.slice(0, -1), last.split(",").slice(0, 2).join(",")].join("\n") + "\n"));

  const badIndex = Math.max(1, head.length - 50);
  const before = Buffer.from(head.slice(0, badIndex).join("\n") + "\n");
  const line = head[badIndex]!;
  const comma = line.indexOf(",") + 1;
  const badLine = Buffer.concat([Buffer.from(line.slice(0, comma)), Buffer.from([0xe9]), Buffer.from(line.slice(comma))]);
  const after = Buffer.from("\n" + head.slice(badIndex + 1).join("\n") + "\n");
  const badUtf8 = write("bad-utf8", Buffer.concat([before, badLine, after]));

  return { wrongHeader, truncated, badUtf8, truncatedLine: head.length, badUtf8Line: badIndex + 1, dir };
}

/** Runs each malformed copy and checks the error names file, line and problem, and nothing changed. */
export async function expectMalformedRefused(db: TestDb, source: string, relative: string, column: string, rows?: number): Promise<void> {
  const copies = malformedCopies(relative, column, rows);
  const before = await fingerprint(db);
  const refuse = async (file: string, pattern: RegExp) => {
    const error = await runIngest(db, source, file).then(
      (summary: IngestSummary) => new Error(`accepted: ${JSON.stringify(summary)}`),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toContain(path.basename(file));
    expect((error as Error).message).toMatch(pattern);
  };
  await refuse(copies.wrongHeader, new RegExp(`line 1: the header lacks column\\(s\\) "${escapeRegExp(column)}"`));
  await refuse(copies.truncated, new RegExp(`line ${copies.truncatedLine}: 2 field\\(s\\) where the header has \\d+ \\(truncated`));
  await refuse(copies.badUtf8, new RegExp(`line ${copies.badUtf8Line}: invalid UTF-8 \\(byte 0xe9\\)`));
  expect(await fingerprint(db)).toEqual(before);
  fs.rmSync(copies.dir, { recursive: true, force: true });
}

/** The summary fields a test pins (ms and the rejects list are checked separately). */
export const counts = (s: IngestSummary) => ({
  read: s.read,
  inserted: s.inserted,
  updated: s.updated,
  unchanged: s.unchanged,
  rejected: s.rejected,
  skipped: s.skipped,
});
