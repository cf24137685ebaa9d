/**
 * The streaming reader on its own (no database): every way a file can be unreadable is a
 * BadRequestError naming the file and line; well-formed oddities (BOM, CRLF, quoted newlines,
 * multi-byte characters split across chunks) read fine.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { BadRequestError } from "../../src/graphql/errors";
import { openCsv, type CsvRow } from "../../src/ingest/csv";
import { runIngest } from "../../src/ingest";
import type { Db } from "../../src/db/client";
import { temporaryDirs } from "../support/temp-dirs";

const dir = temporaryDirs().make("edm-reader-");
const file = (name: string, content: string | Buffer) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return p;
};

/** A gzip file cut in half (varied content, so the compressed stream is long). */
function truncatedGzip(): Buffer {
  const gz = zlib.gzipSync("id,name\n" + Array.from({ length: 5000 }, (_, i) => `${i},${(i * 7919) % 104729}`).join("\n"));
  return gz.subarray(0, gz.length >> 1);
}

async function readAll(p: string, required: string[] = []): Promise<CsvRow[]> {
  const csv = await openCsv(p, path.basename(p), { required: () => required, progress: false });
  const rows: CsvRow[] = [];
  for await (const row of csv.rows()) rows.push(row);
  return rows;
}

async function failure(p: string, required: string[] = []): Promise<Error> {
  return readAll(p, required).then(
    () => new Error("read without error"),
    (e: Error) => e,
  );
}

describe("openCsv", () => {
  it("reads BOM, CRLF, quoted commas and newlines, and reports each row's line", async () => {
    const rows = await readAll(file("ok.csv", '\uFEFFid,name\r\n1,"Smith, Jane"\r\n2,"two\nlines"\r\n\r\n3,Zoë\r\n'), ["id", "name"]);
    expect(rows.map((r) => [r.line, r.get("id"), r.get("name")])).toEqual([
      [2, "1", "Smith, Jane"],
      [4, "2", "two\nlines"],
      [6, "3", "Zoë"],
    ]);
  });

  it("reads gzip and multi-byte characters split across stream chunks", async () => {
    const body = Array.from({ length: 20000 }, (_, i) => `${i},Zoë‡–†${"é".repeat(i % 7)}`).join("\n");
    const rows = await readAll(file("big.csv.gz", zlib.gzipSync(`id,name\n${body}\n`)));
    expect(rows).toHaveLength(20000);
    expect(rows[19999]!.get("name")).toBe(`Zoë‡–†${"é".repeat(19999 % 7)}`);
  });

  it.each([
    ["missing.csv", null, /missing\.csv: file not found/],
    ["empty.csv", "", /empty\.csv: file is empty/],
    ["notgz.csv.gz", "id\n1\n", /not gzip-compressed/],
    ["truncated.csv.gz", truncatedGzip(), /gzip data is corrupt or truncated/],
    ["utf16.csv", Buffer.from("\uFEFFid,name\n", "utf16le"), /line 1: the file is UTF-16 encoded/],
    [
      "latin1.csv",
      Buffer.concat([Buffer.from("id,name\n1,a\n2,Caf"), Buffer.from([0xe9]), Buffer.from("\n")]),
      /line 3: invalid UTF-8 \(byte 0xe9\)/,
    ],
    ["nul.csv", Buffer.from("id,name\n1,a\u0000b\n"), /line 2: a NUL byte/],
    ["quote.csv", 'id,name\n1,"open\n2,b\n', /malformed CSV \(CSV_QUOTE_NOT_CLOSED\)/],
    ["stray-quote.csv", 'id,name\n1,x"y"\n', /line 2: malformed CSV \(INVALID_OPENING_QUOTE\)/],
    ["after-quote.csv", 'id,name\n1,"x"y\n', /line 2: malformed CSV \(CSV_INVALID_CLOSING_QUOTE\)/],
    ["short.csv", "id,name\n1,a\n2\n", /line 3: 1 field\(s\) where the header has 2 \(truncated/],
    ["long.csv", "id,name\n1,a,extra\n", /line 2: 3 field\(s\) where the header has 2 \(extra fields/],
    ["dupe.csv", "id,id\n1,2\n", /line 1: the header names column "id" twice/],
  ])("refuses %s", async (name, content, message) => {
    const p = content === null ? path.join(dir, name) : file(name, content);
    const error = await failure(p);
    expect(error.message).toMatch(message);
    expect(error).toBeInstanceOf(BadRequestError);
  });

  it("reads nothing more once closed", async () => {
    const csv = await openCsv(file("closed.csv", "id,name\n1,a\n2,b"), "closed.csv", { progress: false });
    await csv.close();
    const rows: CsvRow[] = [];
    for await (const row of csv.rows()) rows.push(row);
    expect(rows).toEqual([]);
    expect(csv.read).toBe(0);
  });

  it("names every missing header column", async () => {
    const error = await failure(file("header.csv", "LEAID,NAME\n1,a\n"), ["LEAID", "LEA_NAME", "ST"]);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toContain('line 1: the header lacks column(s) "LEA_NAME", "ST"');
  });
});

describe("runIngest", () => {
  it("refuses an unknown source before touching the database", async () => {
    const db = {} as Db;
    await expect(runIngest(db, "nces-nope", "x.csv")).rejects.toThrow(/unknown ingest source "nces-nope"; known sources: nces-lea, /);
  });
});
