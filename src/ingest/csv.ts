/**
 * Streaming CSV reader for publisher files: file -> (gunzip) -> strict UTF-8 decoding -> CsvParser (csv-parser.ts).
 * Rows are yielded one at a time, so a file is never held in memory. Anything that makes the file
 * unreadable as a table (bad gzip, invalid UTF-8, unbalanced quotes, a row with the wrong number of
 * fields, a missing header column) is a BadRequestError naming the file and line.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { Transform, pipeline } from "node:stream";
import zlib from "node:zlib";
import { BadRequestError } from "../graphql/errors";
import { CsvParser, type CsvRecord, CsvSyntaxError } from "./csv-parser";
import { Progress } from "./progress";

export interface CsvRow {
  /** 1-based line number of the row's last line (the header is line 1). */
  line: number;
  values: readonly string[];
  /** The field under a header column; "" when the column is absent from this file. */
  get(column: string): string;
}

export interface CsvFile {
  /** How the file is named in messages and summaries. */
  readonly name: string;
  readonly header: readonly string[];
  has(column: string): boolean;
  /** The data rows; can be iterated once. */
  rows(): AsyncGenerator<CsvRow>;
  /** Data rows read so far. */
  readonly read: number;
  /** sha256 of the file's bytes as stored (before gunzip); complete once rows() is exhausted. */
  sha256(): string;
  /** Stops reading and closes the file (safe to call more than once, and after the end). */
  close(): Promise<void>;
}

/**
 * Exports with notes around the table (NCES ELSI: title lines above the header, footnotes below it).
 * Without a layout the header is the first row and every later row is data.
 */
export interface CsvLayout {
  /** Tells the header row; rows before it (at most `maxPreamble`) are skipped as preamble. */
  isHeader: (record: readonly string[]) => boolean;
  maxPreamble: number;
  /** Tells a footer row; from the first one on, every row must be footer (a data row after it is refused). */
  isFooter: (record: readonly string[]) => boolean;
  /** Accept `"` inside an unquoted field (ELSI's "Data Source: ... "Local Education Agency ..." ..." note). */
  quotesInsideFields?: boolean;
}

export interface OpenCsvOptions {
  layout?: CsvLayout;
  /** Columns the header must contain. */
  required?: (header: readonly string[]) => readonly string[];
  progress?: boolean;
  label?: string;
  /** Field separator; default ",". */
  delimiter?: string;
}

export async function openCsv(filePath: string, name: string, options: OpenCsvOptions = {}): Promise<CsvFile> {
  function fail(message: string): never {
    throw new BadRequestError(`${name}: ${message}`);
  }
  let size = 0;
  try {
    size = fs.statSync(filePath).size;
  } catch {
    fail("file not found or not readable");
  }
  if (size === 0) fail("file is empty (no header row)");

  const head = readHead(filePath);
  const gzipped = head[0] === 0x1f && head[1] === 0x8b;
  if (!gzipped && filePath.endsWith(".gz")) fail("the name ends in .gz but the file is not gzip-compressed");

  const hash = crypto.createHash("sha256");
  const progress = new Progress(options.label ?? name, size, options.progress);
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      progress.advance(chunk.length);
      callback(null, chunk);
    },
  });
  const decoder = new Utf8Decoder(name);
  const parser = new CsvParser({ delimiter: options.delimiter, relaxQuotes: options.layout?.quotesInsideFields });
  let streamError: unknown;
  const onEnd = (error: Error | null) => {
    if (error) streamError = error;
  };
  const bytes = gzipped
    ? pipeline(fs.createReadStream(filePath, { highWaterMark: CHUNK }), tap, zlib.createGunzip({ chunkSize: CHUNK }), onEnd)
    : pipeline(fs.createReadStream(filePath, { highWaterMark: CHUNK }), tap, onEnd);
  const chunks = (bytes as AsyncIterable<Buffer>)[Symbol.asyncIterator]();

  // Records of the last chunk parsed, handed out one at a time; the next chunk is read once they are.
  let batch: CsvRecord[] = [];
  let taken = 0;
  /** The data ended, failed or was closed: no further record. */
  let ended = false;
  let closed = false;
  const next = async (): Promise<CsvRecord | undefined> => {
    if (closed) return undefined;
    while (taken === batch.length) {
      if (ended) return undefined;
      batch = [];
      taken = 0;
      try {
        const chunk = await chunks.next();
        if (chunk.done) {
          ended = true;
          parser.push(decoder.end(), batch);
          parser.end(batch);
        } else parser.push(decoder.decode(chunk.value), batch);
      } catch (error) {
        ended = true;
        progress.done();
        throw describeStreamError(name, streamError ?? error);
      }
    }
    return batch[taken++];
  };

  const close = async () => {
    if (closed) return;
    closed = true;
    progress.done();
    await chunks.return?.();
  };
  const refuse = async (message: string): Promise<never> => {
    await close();
    return fail(message);
  };

  let first = await next();
  if (!first) fail("file has no header row");
  if (options.layout) {
    for (let skipped = 0; !options.layout.isHeader(first.record); skipped += 1) {
      if (skipped >= options.layout.maxPreamble) await refuse(`no header row in the first ${options.layout.maxPreamble + 1} rows`);
      first = await next();
      if (!first) fail("file has no header row");
    }
  }
  const headerLine = first.line;
  const header = first.record.map((h) => h.trim());
  const seen = new Set<string>();
  for (const column of header) {
    // Unnamed columns (a trailing comma) are tolerated and never read.
    if (column !== "" && seen.has(column)) await refuse(`line ${headerLine}: the header names column "${column}" twice`);
    seen.add(column);
  }
  let requiredColumns: readonly string[];
  try {
    requiredColumns = options.required?.(header) ?? [];
  } catch (error) {
    await close();
    throw error;
  }
  const missing = requiredColumns.filter((column) => !seen.has(column));
  if (missing.length) {
    await refuse(
      `line ${headerLine}: the header lacks column(s) ${missing.map((c) => `"${c}"`).join(", ")}; found ${header.map((c) => `"${c}"`).join(", ")}`,
    );
  }
  const index = new Map(header.map((column, i) => [column, i]));

  let read = 0;
  let consumed = false;
  let inFooter = false;
  return {
    name,
    header,
    has: (column) => index.has(column),
    get read() {
      return read;
    },
    sha256: () => hash.copy().digest("hex"),
    close,
    async *rows() {
      if (consumed) throw new Error(`${name}: rows() can be iterated once`);
      consumed = true;
      try {
        for (;;) {
          const result = await next();
          if (!result) break;
          const { record, line } = result;
          if (inFooter || options.layout?.isFooter(record)) {
            if (!options.layout!.isFooter(record)) fail(`line ${line}: a data row after the footer notes (truncated or broken table)`);
            inFooter = true;
            continue;
          }
          if (record.length !== header.length) {
            fail(
              `line ${line}: ${record.length} field(s) where the header has ${header.length}` +
                (record.length < header.length ? " (truncated or broken row)" : " (extra fields or an unquoted comma)"),
            );
          }
          read += 1;
          yield { line, values: record, get: (column: string) => record[index.get(column) ?? -1] ?? "" };
        }
      } finally {
        // Also when stopped early (an error while writing): close the file instead of leaving it open.
        await close();
      }
    },
  };
}

/** Bytes per read (and per gunzip output chunk): fewer, larger chunks cost less per byte. */
const CHUNK = 256 * 1024;

function readHead(filePath: string): Buffer {
  const fd = fs.openSync(filePath, "r");
  try {
    const buffer = Buffer.alloc(4);
    const n = fs.readSync(fd, buffer, 0, 4, 0);
    return buffer.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

function describeStreamError(name: string, error: unknown): Error {
  if (error instanceof BadRequestError) return error;
  if (error instanceof CsvSyntaxError)
    return new BadRequestError(`${name}: line ${error.line}: malformed CSV (${error.code}): ${error.message}`);
  const e = error as { code?: string; message?: string };
  if (e?.code === "Z_DATA_ERROR" || e?.code === "Z_BUF_ERROR" || /unexpected end of file/i.test(e?.message ?? "")) {
    return new BadRequestError(`${name}: the gzip data is corrupt or truncated (${e.message})`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Decodes the file's bytes chunk by chunk, failing on the first invalid UTF-8 sequence and naming its line:
 * a Latin-1 or Windows-1252 export must be refused, not read with U+FFFD in place of its accents.
 * A leading BOM is dropped (TextDecoder's default).
 */
export class Utf8Decoder {
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private newlines = 0;
  private started = false;
  /** Bytes of an incomplete character carried over from the previous chunk (for the error position). */
  private carry: Buffer = Buffer.alloc(0);

  constructor(private readonly name: string) {}

  decode(chunk: Buffer): string {
    if (!this.started) {
      this.started = true;
      if ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff)) {
        throw new BadRequestError(`${this.name}: line 1: the file is UTF-16 encoded; save it as UTF-8`);
      }
    }
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      throw this.invalidAt(chunk);
    }
    if (chunk.includes(0)) throw this.invalidAt(chunk, true);
    this.carry = trailingIncomplete(chunk);
    this.newlines += countNewlines(chunk);
    return text;
  }

  end(): string {
    try {
      return this.decoder.decode();
    } catch {
      throw new BadRequestError(`${this.name}: line ${this.newlines + 1}: the file ends inside a UTF-8 character (truncated?)`);
    }
  }

  private invalidAt(chunk: Buffer, nul = false): BadRequestError {
    const bytes = Buffer.concat([this.carry, chunk]);
    const offset = nul ? bytes.indexOf(0) : firstInvalidUtf8(bytes);
    const line = this.newlines + countNewlines(bytes.subarray(this.carry.length, Math.max(this.carry.length, offset))) + 1;
    const byte = bytes[offset] ?? 0;
    const what = nul ? "a NUL byte (binary file?)" : `invalid UTF-8 (byte 0x${byte.toString(16).padStart(2, "0")})`;
    return new BadRequestError(
      `${this.name}: line ${line}: ${what}; the file must be UTF-8 encoded (was it saved as Latin-1 / Windows-1252?)`,
    );
  }
}

function countNewlines(buffer: Buffer): number {
  let n = 0;
  for (let i = buffer.indexOf(10); i !== -1; i = buffer.indexOf(10, i + 1)) n += 1;
  return n;
}

/** The bytes after the last complete UTF-8 character of `buffer` (a character split across chunks). */
function trailingIncomplete(buffer: Buffer): Buffer {
  for (let back = 1; back <= 3 && back <= buffer.length; back += 1) {
    const byte = buffer[buffer.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? buffer.subarray(buffer.length - back) : Buffer.alloc(0);
  }
  return Buffer.alloc(0);
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k += 1) {
      if (i + k >= bytes.length) return i; // incomplete at the end of the data
      if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return Math.max(0, bytes.length - 1);
}
