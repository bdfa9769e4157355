/** The CSV parser, the delimiter sniffer and the CSV reader on the shapes exports take. */
import { describe, expect, test } from "vitest";
import { parseCsv } from "../../src/tabular/csv-parse.js";
import { openCsv } from "../../src/tabular/csv-reader.js";
import { sniffDelimiter } from "../../src/tabular/csv-sniff.js";
import { TabularError, type TabularSource } from "../../src/tabular/types.js";

const records = (text: string, d = ",") => [...parseCsv(text, d)];

function rowsOf(source: TabularSource) {
  return [...source.rows()];
}

describe("parseCsv", () => {
  test("quoted delimiters, doubled quotes and line breaks; each record's first line", () => {
    const text = 'a,b\r\n"x, y","say ""hi"""\r\n"two\r\nlines",z\r\n\r\nlast,one';
    expect(records(text)).toEqual([
      { line: 1, fields: ["a", "b"], ended: true },
      { line: 2, fields: ["x, y", 'say "hi"'], ended: true },
      { line: 3, fields: ["two\r\nlines", "z"], ended: true },
      { line: 5, fields: [""], ended: true },
      { line: 6, fields: ["last", "one"], ended: false },
    ]);
  });

  test("LF, lone CR, a trailing delimiter, an empty quoted field, a quote inside a field", () => {
    expect(records('a,b\rc,\n"",d"e\n')).toEqual([
      { line: 1, fields: ["a", "b"], ended: true },
      { line: 2, fields: ["c", ""], ended: true },
      { line: 3, fields: ["", 'd"e'], ended: true },
    ]);
  });

  test("an unclosed quote names the line it starts on", () => {
    const thrown = (() => {
      try {
        records('a\nb\n"c\nd\n');
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(TabularError);
    expect((thrown as TabularError).line).toBe(3);
  });
});

describe("sniffDelimiter", () => {
  test.each([
    ["user_id,name\n1,a\n", ","],
    ["user_id;name;city\n1;Smith, Jr;Paris\n2;Lee;Oslo\n", ";"],
    ["user_id\tname\n1\ta,b\n", "\t"],
    ["user_id|name\n1|a;b\n", "|"],
    ['user_id;name\n1;"a;b"\n', ";"],
    ["user_id\n1\n2\n", ","],
  ])("%j → %j", (text, delimiter) => {
    expect(sniffDelimiter(text)).toBe(delimiter);
  });

  test("a header that splits both ways: the delimiter the rows agree with wins", () => {
    const text = "id;name,first\n1;Lee,Ann\n2;Kim\n3;Ito\n";
    expect(sniffDelimiter(text)).toBe(";");
  });
});

describe("openCsv", () => {
  test("BOM dropped, blank and all-empty lines skipped, short rows padded, empty cells null", async () => {
    const bytes = Buffer.from("\uFEFF\r\nid,name,city\r\n1,Ana\r\n,,\r\n2,,Oslo,extra\r\n");
    const source = openCsv(bytes, "x.csv");
    expect(source.columns).toEqual(["id", "name", "city"]);
    expect(source.unit).toBe("line");
    expect(rowsOf(source)).toEqual([
      { line: 3, values: ["1", "Ana", null] },
      { line: 5, values: ["2", null, "Oslo", "extra"] },
    ]);
  });

  test("a short last line is padded when a line break ends it, and refused as cut short when none does", () => {
    expect(rowsOf(openCsv(Buffer.from("id,name,city\n1,Ana,Oslo\n2,Bo\n"), "x.csv"))).toEqual([
      { line: 2, values: ["1", "Ana", "Oslo"] },
      { line: 3, values: ["2", "Bo", null] },
    ]);
    // A whole last line without a line break is whole; a short one is how a cut file ends.
    expect(rowsOf(openCsv(Buffer.from("id,name\n1,Ana\n2,Bo"), "x.csv"))).toHaveLength(2);
    const cut = openCsv(Buffer.from("id,name,city\n1,Ana,Oslo\n2,Bo"), "x.csv");
    expect(() => rowsOf(cut)).toThrow(/^only 2 of the header's 3 fields, .* it looks cut short/);
  });

  test("an unclosed quote in the header names the file and line", () => {
    expect(() => openCsv(Buffer.from('id,"name\n1,a\n'), "x.csv")).toThrow(
      "x.csv line 1: a quoted field starts here and is never closed",
    );
  });

  test("Excel's first line sep=; names the delimiter and is no header; lines keep their numbers", () => {
    // A comma inside the names would win the sniffing; the hint says otherwise.
    const bytes = Buffer.from("\uFEFFsep=;\r\nid;name\r\n1;Smith, Jr\r\n2;Lee, Ann\r\n");
    const source = openCsv(bytes, "x.csv");
    expect(source.columns).toEqual(["id", "name"]);
    expect(source.detail).toBe('delimiter ";"');
    expect(rowsOf(source)).toEqual([
      { line: 3, values: ["1", "Smith, Jr"] },
      { line: 4, values: ["2", "Lee, Ann"] },
    ]);
  });
});
