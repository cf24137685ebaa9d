/**
 * RFC 4180 CSV parser over decoded text, fed chunk by chunk (csv.ts decodes the bytes). It replaced csv-parse,
 * whose byte-at-a-time loop was most of the reader's CPU, and gives the same records, line numbers and errors
 * as csv-parse 7 did with the reader's options (bom, relax_column_count, skip_empty_lines, relax_quotes on
 * request):
 * - the record delimiter is the first CRLF, LF or CR met outside quotes; the other two are then field content;
 * - a field opening with `"` is quoted (`""` inside it is one quote; delimiters and line breaks are content);
 *   its closing quote must be followed by the delimiter, the record delimiter or the end of the data, else
 *   CSV_INVALID_CLOSING_QUOTE, or with `relaxQuotes` the quotes are kept and the field goes on unquoted;
 * - a quote inside an unquoted field is INVALID_OPENING_QUOTE, or with `relaxQuotes` a plain character;
 * - an empty line is skipped (a line holding `""` is one empty field, not an empty line);
 * - a record's line is the 1-based line of its last line, where every CR and LF read counts as a line break
 *   except the LF of a CRLF record delimiter (so a CRLF inside quotes counts twice, as csv-parse counted it).
 * The BOM is the decoder's to strip (TextDecoder does).
 */

export interface CsvRecord {
  record: string[];
  /** 1-based line number of the record's last line. */
  line: number;
}

/** A syntax error: `code` as csv-parse named it, `line` where it was found. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly line: number,
  ) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

export interface CsvParserOptions {
  /** One character; default ",". */
  delimiter?: string;
  /** Accept `"` inside an unquoted field, and text after a closing quote (kept as written). */
  relaxQuotes?: boolean;
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** The record delimiter, as discovered. */
const enum Rd {
  Unknown,
  Lf,
  CrLf,
  Cr,
}

export class CsvParser {
  private readonly delimiter: number;
  private readonly relaxQuotes: boolean;
  private rd = Rd.Unknown;
  /** Text of the previous chunk not yet parsed (a CR or quote whose meaning depends on what follows). */
  private carry = "";
  private record: string[] = [];
  /** The current field's text read so far (from earlier chunks, or around `""`). */
  private field = "";
  private quoting = false;
  /** The current field was quoted (its closing quote was read). */
  private wasQuoting = false;
  /** Line breaks read so far (see the header comment). */
  private breaks = 0;
  /** The last character read was a line break (csv-parse counted it only once a further character was read). */
  private endsWithBreak = false;

  constructor(options: CsvParserOptions = {}) {
    const delimiter = options.delimiter ?? ",";
    if (delimiter.length !== 1 || delimiter === '"' || delimiter === "\r" || delimiter === "\n") {
      throw new Error(`CSV delimiter must be one character other than a quote or line break, got ${JSON.stringify(delimiter)}`);
    }
    this.delimiter = delimiter.charCodeAt(0);
    this.relaxQuotes = options.relaxQuotes ?? false;
  }

  /** Parses the next chunk of text, appending every record it completes to `out`. */
  push(chunk: string, out: CsvRecord[]): void {
    const text = this.carry === "" ? chunk : this.carry + chunk;
    this.carry = "";
    this.parse(text, false, out);
  }

  /** The end of the data: appends the last record to `out`; throws CSV_QUOTE_NOT_CLOSED inside a quoted field. */
  end(out: CsvRecord[]): void {
    const text = this.carry;
    this.carry = "";
    this.parse(text, true, out);
    if (this.quoting) {
      const line = this.line();
      throw new CsvSyntaxError(
        "CSV_QUOTE_NOT_CLOSED",
        `Quote Not Closed: the parsing is finished with an opening quote at line ${line}`,
        line,
      );
    }
    if (this.wasQuoting || this.record.length !== 0 || this.field !== "") {
      this.record.push(this.field);
      out.push({ record: this.record, line: this.line() });
      this.record = [];
      this.field = "";
      this.wasQuoting = false;
    }
  }

  /** The current line, as csv-parse reported it (a break that is the last character read is not counted yet). */
  private line(): number {
    return 1 + this.breaks - (this.endsWithBreak ? 1 : 0);
  }

  private parse(text: string, end: boolean, out: CsvRecord[]): void {
    const n = text.length;
    const delimiter = this.delimiter;
    let i = 0;
    while (i < n) {
      if (this.quoting) {
        const q = text.indexOf('"', i);
        const stop = q === -1 ? n : q;
        if (stop > i) {
          this.countBreaks(text, i, stop);
          this.field += text.slice(i, stop);
        }
        if (q === -1) return;
        // The quote's meaning depends on up to two following characters ("" or a closing quote before CRLF).
        if (!end && q + 2 >= n && !(q + 1 < n && this.closesBefore(text.charCodeAt(q + 1)))) {
          this.carry = text.slice(q);
          return;
        }
        this.endsWithBreak = false;
        const next = q + 1 < n ? text.charCodeAt(q + 1) : -1;
        if (next === QUOTE) {
          this.field += '"';
          i = q + 2;
          continue;
        }
        if (next === -1 || next === delimiter || this.isRecordDelimiter(text, q + 1)) {
          this.quoting = false;
          this.wasQuoting = true;
          i = q + 1;
          continue;
        }
        if (!this.relaxQuotes) {
          const line = this.line();
          throw new CsvSyntaxError(
            "CSV_INVALID_CLOSING_QUOTE",
            `Invalid Closing Quote: got "${String.fromCharCode(next)}" at line ${line} instead of delimiter, record delimiter, trimable character (if activated) or comment`,
            line,
          );
        }
        // relax_quotes: both quotes stay, and the field goes on unquoted.
        this.quoting = false;
        this.wasQuoting = true;
        this.field = `"${this.field}"`;
        i = q + 1;
        continue;
      }

      // Unquoted: up to the next delimiter, line break or quote.
      const start = i;
      let j = i;
      let c = 0;
      for (; j < n; j++) {
        c = text.charCodeAt(j);
        if (c === delimiter || c === LF || c === CR || c === QUOTE) break;
      }
      if (j === n) {
        if (j > start) {
          this.field += text.slice(start, j);
          this.endsWithBreak = false;
        }
        return;
      }
      if (c === delimiter) {
        this.record.push(j > start ? this.field + text.slice(start, j) : this.field);
        this.field = "";
        this.wasQuoting = false;
        this.endsWithBreak = false;
        i = j + 1;
        continue;
      }
      if (c === QUOTE) {
        if (j > start) this.field += text.slice(start, j);
        this.endsWithBreak = false;
        if (this.field === "") {
          this.quoting = true;
          i = j + 1;
          continue;
        }
        if (!this.relaxQuotes) {
          const line = this.line();
          throw new CsvSyntaxError(
            "INVALID_OPENING_QUOTE",
            `Invalid Opening Quote: a quote is found on field ${this.record.length} at line ${line}, value is ${JSON.stringify(this.field)}`,
            line,
          );
        }
        this.field += '"';
        i = j + 1;
        continue;
      }
      // A line break: the record delimiter, or content when another kind was discovered first.
      if (c === CR && !end && j + 1 >= n && this.rd !== Rd.Lf && this.rd !== Rd.Cr) {
        // CR at the end of the chunk: is it CRLF? Decided with the next chunk.
        if (j > start) {
          this.field += text.slice(start, j);
          this.endsWithBreak = false;
        }
        this.carry = text.slice(j);
        return;
      }
      const length = this.isRecordDelimiter(text, j);
      if (length === 0) {
        // Content: counted as a line break all the same.
        this.field += text.slice(start, j + 1);
        this.breaks += 1;
        this.endsWithBreak = true;
        i = j + 1;
        continue;
      }
      const field = j > start ? this.field + text.slice(start, j) : this.field;
      if (field === "" && this.record.length === 0 && !this.wasQuoting) {
        // An empty line.
      } else {
        this.record.push(field);
        out.push({ record: this.record, line: 1 + this.breaks });
        this.record = [];
      }
      this.field = "";
      this.wasQuoting = false;
      // One break for CRLF too (csv-parse skipped its LF).
      this.breaks += 1;
      this.endsWithBreak = true;
      i = j + length;
    }
  }

  /** Whether a closing quote followed by `next` is decided without a second character of lookahead. */
  private closesBefore(next: number): boolean {
    return next !== CR || this.rd === Rd.Lf || this.rd === Rd.Cr;
  }

  /**
   * Length of the record delimiter at `at` (0 if none), discovering it on its first occurrence outside quotes
   * (also after a closing quote, as csv-parse did). The caller has made sure the next character is there.
   */
  private isRecordDelimiter(text: string, at: number): number {
    const c = text.charCodeAt(at);
    if (c !== LF && c !== CR) return 0;
    if (this.rd === Rd.Unknown) this.rd = c === LF ? Rd.Lf : text.charCodeAt(at + 1) === LF ? Rd.CrLf : Rd.Cr;
    switch (this.rd) {
      case Rd.Lf:
        return c === LF ? 1 : 0;
      case Rd.Cr:
        return c === CR ? 1 : 0;
      default:
        return c === CR && text.charCodeAt(at + 1) === LF ? 2 : 0;
    }
  }

  private countBreaks(text: string, from: number, to: number): void {
    for (let k = from; k < to; k++) {
      const c = text.charCodeAt(k);
      if (c === LF || c === CR) this.breaks += 1;
    }
    const last = text.charCodeAt(to - 1);
    this.endsWithBreak = last === LF || last === CR;
  }
}
