/**
 * One sheet of a spreadsheet file (legacy Excel .xls, .xlsx) as the CsvFile the ingestors read: the sheet's
 * first row is the header, every later non-empty row is data, every cell its formatted text (ids keep their
 * leading zeros). Read with @e965/xlsx (a maintained mirror of current SheetJS). A spreadsheet is not
 * streamed: the whole workbook is parsed in memory (the Illinois directory, 2.9 MB, in about a second).
 * A file that is not a workbook, or lacks the sheet or a required column, is a BadRequestError naming it.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import * as XLSX from "@e965/xlsx";
import { BadRequestError } from "../graphql/errors";
import type { CsvFile, CsvRow, OpenCsvOptions } from "./csv";

export async function openSheet(filePath: string, name: string, sheet: string, options: OpenCsvOptions = {}): Promise<CsvFile> {
  const fail = (message: string): never => {
    throw new BadRequestError(`${name}: ${message}`);
  };
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(filePath);
  } catch {
    return fail("file not found or not readable");
  }
  if (bytes.length === 0) fail("file is empty (no header row)");
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, { type: "buffer", dense: true, sheets: [sheet] });
  } catch (error) {
    return fail(`not a readable spreadsheet (${(error as Error).message})`);
  }
  // SheetJS reads any text as a one-sheet workbook: a file without the named sheet is refused here.
  const cells = workbook.Sheets[sheet];
  if (!cells) return fail(`no sheet "${sheet}"; found ${workbook.SheetNames.map((s) => `"${s}"`).join(", ")}`);
  const table = XLSX.utils.sheet_to_json<unknown[]>(cells, { header: 1, raw: false, defval: "", blankrows: true });
  const records = table.map((r) => r.map((v) => (v == null ? "" : String(v))));
  const header = (records[0] ?? fail(`sheet "${sheet}" has no header row`)).map((h) => h.trim());
  const seen = new Set<string>();
  for (const column of header) {
    if (column !== "" && seen.has(column)) fail(`line 1: the header names column "${column}" twice`);
    seen.add(column);
  }
  const missing = (options.required?.(header) ?? []).filter((column) => !seen.has(column));
  if (missing.length) {
    fail(`line 1: the header lacks column(s) ${missing.map((c) => `"${c}"`).join(", ")}; found ${header.map((c) => `"${c}"`).join(", ")}`);
  }
  const index = new Map(header.map((column, i) => [column, i]));
  const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
  let read = 0;
  let consumed = false;
  return {
    name,
    header,
    has: (column) => index.has(column),
    get read() {
      return read;
    },
    sha256: () => sha256,
    close: async () => undefined,
    async *rows(): AsyncGenerator<CsvRow> {
      if (consumed) throw new Error(`${name}: rows() can be iterated once`);
      consumed = true;
      for (let i = 1; i < records.length; i += 1) {
        const values = records[i]!;
        if (values.every((v) => v.trim() === "")) continue;
        read += 1;
        yield { line: i + 1, values, get: (column: string) => values[index.get(column) ?? -1] ?? "" };
      }
    },
  };
}
