/**
 * The CSV parser of the ingest reader (src/ingest/csv-parser.ts) and its UTF-8 decoder (src/ingest/csv.ts), on
 * their own: the same records, line numbers and errors whichever way the text is cut into chunks (the reader
 * gets 256 KiB chunks, and a quote, a CRLF or a multi-byte character can straddle any boundary).
 */
import { BadRequestError } from "../../src/graphql/errors";
import { CsvParser, type CsvParserOptions, CsvSyntaxError } from "../../src/ingest/csv-parser";
import { Utf8Decoder } from "../../src/ingest/csv";

type Parsed = Array<[line: number, record: string[]]>;

function parseChunks(chunks: readonly string[], options?: CsvParserOptions): Parsed {
  const parser = new CsvParser(options);
  const out: Array<{ record: string[]; line: number }> = [];
  for (const chunk of chunks) parser.push(chunk, out);
  parser.end(out);
  return out.map((r) => [r.line, r.record]);
}

/** Parses `text` whole, one character at a time, and cut in two at every position; all must agree. */
function parse(text: string, options?: CsvParserOptions): Parsed {
  const whole = parseChunks([text], options);
  expect(parseChunks([...text], options)).toEqual(whole);
  for (let cut = 0; cut <= text.length; cut += 1) {
    expect(parseChunks([text.slice(0, cut), text.slice(cut)], options)).toEqual(whole);
  }
  return whole;
}

/** The error for `text`, the same at every cut. */
function syntaxError(text: string, options?: CsvParserOptions): CsvSyntaxError {
  const errors = [[text], [...text], ...Array.from({ length: text.length + 1 }, (_, cut) => [text.slice(0, cut), text.slice(cut)])].map(
    (chunks) => {
      try {
        parseChunks(chunks, options);
      } catch (error) {
        return error as CsvSyntaxError;
      }
      throw new Error(`parsed without error: ${JSON.stringify(chunks)}`);
    },
  );
  for (const error of errors) {
    expect(error).toBeInstanceOf(CsvSyntaxError);
    expect([error.code, error.line, error.message]).toEqual([errors[0]!.code, errors[0]!.line, errors[0]!.message]);
  }
  return errors[0]!;
}

describe("CsvParser", () => {
  it("splits fields and records; a record's line is the line it ends on", () => {
    expect(parse("id,name\n1,a\n2,b")).toEqual([
      [1, ["id", "name"]],
      [2, ["1", "a"]],
      [3, ["2", "b"]],
    ]);
    expect(parse("a,,\n,\n")).toEqual([
      [1, ["a", "", ""]],
      [2, ["", ""]],
    ]);
  });

  it("reads quoted fields: delimiters, line breaks and doubled quotes inside, an empty quoted field", () => {
    expect(parse('id,name\n1,"Smith, Jane"\n2,"two\nlines"\n3,"say ""hi""",""\n4,""""')).toEqual([
      [1, ["id", "name"]],
      [2, ["1", "Smith, Jane"]],
      [4, ["2", "two\nlines"]],
      [5, ["3", 'say "hi"', ""]],
      [6, ["4", '"']],
    ]);
  });

  it("takes the first line break outside quotes as the record delimiter: CRLF, LF or CR", () => {
    expect(parse('a,b\r\n1,"x\r\ny"\r\n2,c\nd\r\n')).toEqual([
      [1, ["a", "b"]],
      // csv-parse counted a CRLF inside quotes as two line breaks, and so does the parser.
      [4, ["1", "x\r\ny"]],
      // After CRLF, a lone LF is field content (still counted as a line break).
      [6, ["2", "c\nd"]],
    ]);
    expect(parse("a,b\n1,x\r\n")).toEqual([
      [1, ["a", "b"]],
      [3, ["1", "x\r"]],
    ]);
    expect(parse("a,b\r1,2\r")).toEqual([
      [1, ["a", "b"]],
      [2, ["1", "2"]],
    ]);
  });

  it("skips empty lines, but not a line holding an empty quoted field", () => {
    expect(parse('\r\n\r\na\r\n\r\n\r\nb\r\n""\r\n\r\n')).toEqual([
      [3, ["a"]],
      [6, ["b"]],
      [7, [""]],
    ]);
    expect(parse("")).toEqual([]);
    expect(parse("\n\n")).toEqual([]);
  });

  it("takes another delimiter (tab-separated exports)", () => {
    expect(parse('a\tb,c\n"x\ty"\t2\n', { delimiter: "\t" })).toEqual([
      [1, ["a", "b,c"]],
      [2, ["x\ty", "2"]],
    ]);
  });

  it("refuses quotes in the wrong place, and with relaxQuotes keeps them as written", () => {
    const opening = syntaxError('a,b\n1,x"y"\n');
    expect([opening.code, opening.line, opening.message]).toEqual([
      "INVALID_OPENING_QUOTE",
      2,
      'Invalid Opening Quote: a quote is found on field 1 at line 2, value is "x"',
    ]);
    const closing = syntaxError('a,b\n1,"x"y\n');
    expect([closing.code, closing.line]).toEqual(["CSV_INVALID_CLOSING_QUOTE", 2]);
    expect(closing.message).toBe(
      'Invalid Closing Quote: got "y" at line 2 instead of delimiter, record delimiter, trimable character (if activated) or comment',
    );
    // NCES ELSI's note line: quotes inside an unquoted field, and text after a closing quote.
    expect(parse('Data Source: "Local Education Agency" (2023),"x"y z\n', { relaxQuotes: true })).toEqual([
      [1, ['Data Source: "Local Education Agency" (2023)', '"x"y z']],
    ]);
  });

  it("refuses a quote left open at the end of the data, naming the line csv-parse named", () => {
    const error = syntaxError('id,name\n1,"open\n2,b\n');
    expect([error.code, error.line, error.message]).toEqual([
      "CSV_QUOTE_NOT_CLOSED",
      3,
      "Quote Not Closed: the parsing is finished with an opening quote at line 3",
    ]);
    expect(syntaxError('a\n"x""').code).toBe("CSV_QUOTE_NOT_CLOSED");
  });

  it("accepts one delimiter character other than a quote or line break", () => {
    expect(() => new CsvParser({ delimiter: ";;" })).toThrow(/one character/);
    expect(() => new CsvParser({ delimiter: '"' })).toThrow(/one character/);
  });
});

describe("Utf8Decoder", () => {
  const decodeChunks = (chunks: readonly Buffer[]): string => {
    const decoder = new Utf8Decoder("f.csv");
    return chunks.map((c) => decoder.decode(c)).join("") + decoder.end();
  };
  const failure = (chunks: readonly Buffer[]): Error => {
    try {
      decodeChunks(chunks);
    } catch (error) {
      return error as Error;
    }
    throw new Error("decoded without error");
  };

  it("drops a leading BOM and joins characters cut at any byte", () => {
    const bytes = Buffer.from("\uFEFFid,name\n1,Zoë‡😀\n", "utf8");
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      expect(decodeChunks([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe("id,name\n1,Zoë‡😀\n");
    }
    expect(decodeChunks([...bytes].map((b) => Buffer.from([b])))).toBe("id,name\n1,Zoë‡😀\n");
  });

  it("names the line of an invalid byte, also when the chunk before ends inside a character", () => {
    const bytes = Buffer.concat([Buffer.from("id,name\n1,Zo\u00eb\n2,Caf"), Buffer.from([0xe9, 0x0a])]);
    for (let cut = 1; cut < bytes.length; cut += 1) {
      const error = failure([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.message).toMatch(/^f\.csv: line 3: invalid UTF-8 \(byte 0xe9\); the file must be UTF-8 encoded/);
    }
  });

  it("refuses a file ending inside a character, NUL bytes and UTF-16", () => {
    expect(failure([Buffer.from([0x61, 0x0a, 0xe2, 0x80])]).message).toBe(
      "f.csv: line 2: the file ends inside a UTF-8 character (truncated?)",
    );
    expect(failure([Buffer.from("a\nb\u0000c")]).message).toMatch(/^f\.csv: line 2: a NUL byte \(binary file\?\)/);
    expect(failure([Buffer.from("\uFEFFid", "utf16le")]).message).toBe("f.csv: line 1: the file is UTF-16 encoded; save it as UTF-8");
  });
});
