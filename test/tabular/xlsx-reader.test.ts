/**
 * The XLSX reader reads part by part, yet must read every workbook as exceljs's whole-workbook
 * loader did: each case is read by both and compared, and the cases where exceljs's streaming
 * reader reads otherwise (zip order, phonetic text, formulas' error results, characters split
 * between chunks) are pinned to their values as well.
 */
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { describe, expect, test } from "vitest";
import { openXlsx } from "../../src/tabular/xlsx-reader.js";
import {
  type CraftedBook,
  craftWorkbook,
  type Reading,
  readWholeWorkbook,
  reorderParts,
} from "./xlsx-workbooks.js";

async function readNew(bytes: Uint8Array, sheet?: string): Promise<Reading> {
  try {
    const source = await openXlsx(bytes, "book.xlsx", sheet);
    return {
      columns: source.columns,
      detail: source.detail,
      rows: [...source.rows()],
      notes: [...(source.notes ?? [])].map(([line, notes]) => [line, [...notes]]),
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Reads `bytes` with both readers, expects the same, and answers the reading. */
async function readBoth(bytes: Uint8Array, sheet?: string): Promise<Reading> {
  const reading = await readNew(bytes, sheet);
  expect(reading).toEqual(await readWholeWorkbook(bytes, "book.xlsx", sheet));
  return reading;
}

const text = (ref: string, value: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
const row = (line: number, cells: string, attributes = "") =>
  `<row r="${line}"${attributes}>${cells}</row>`;
const sheetData = (...rows: string[]) => `<sheetData>${rows.join("")}</sheetData>`;
const HEADER = row(1, text("A1", "a") + text("B1", "b") + text("C1", "c"));

/** Cell styles by `s`: 0 General, 1 a date, 2 `00000`, 3 `#,##0.00`, 4 built-in 14 (a date), 5 Text. */
const FORMATS: Pick<CraftedBook, "numFmts" | "cellFormats"> = {
  numFmts: [
    [164, "yyyy-mm-dd"],
    [165, "00000"],
    [166, "#,##0.00"],
  ],
  cellFormats: [0, 164, 165, 166, 14, 49],
};

/** A workbook of one sheet "S": the header row, `rows`, and what the sheet holds around them. */
function oneSheet(
  rows: string[],
  more: {
    before?: string;
    after?: string;
    rels?: string;
    strings?: string;
    date1904?: boolean;
  } = {},
): CraftedBook {
  const xml = `${more.before ?? ""}${sheetData(HEADER, ...rows)}${more.after ?? ""}`;
  return { ...FORMATS, ...more, sheets: [{ name: "S", xml, rels: more.rels }] };
}

const CASES: Record<string, CraftedBook> = {
  "shared strings: phonetic readings left out, _x000D_ decoded, rich text joined": oneSheet(
    [
      row(
        2,
        '<c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c><c r="C2" t="s"><v>2</v></c>',
      ),
      row(3, '<c r="A3" t="s"><v>3</v></c>'),
    ],
    {
      strings:
        '<si><t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh></si><si><t>a_x000D_b</t></si>' +
        '<si><r><t>x</t></r><r><rPr><b/></rPr><t>y</t></r></si><si><t xml:space="preserve"> s </t></si>',
    },
  ),
  "inline strings, rich inline strings, formula strings": oneSheet([
    row(
      2,
      text("A2", "plain_x000D_") +
        '<c r="B2" t="inlineStr"><is><r><t>a</t></r><r><t>b_x000D_</t></r></is></c>' +
        '<c r="C2" t="str"><v>&amp;amp;x</v></c>',
    ),
  ]),
  "formulas: their results, errors, booleans, dates, shared formulas": oneSheet([
    row(
      2,
      '<c r="A2" t="b"><f>TRUE()</f><v>1</v></c><c r="B2" t="e"><f>NA()</f><v>#N/A</v></c>' +
        '<c r="C2" t="str"><f>"a"</f><v>a</v></c>',
    ),
    row(
      3,
      '<c r="A3" s="1"><f>TODAY()</f><v>45352.5</v></c>' +
        '<c r="B3"><f t="shared" ref="B3:B5" si="0">A1*2</f><v>4</v></c>' +
        '<c r="C3"><f>A1*3</f><v>3</v></c>',
    ),
    row(
      4,
      '<c r="A4"><f>A1</f></c><c r="B4"><f t="shared" si="0"/><v>6</v></c>' +
        '<c r="C4"><f t="shared" si="9"/><v>8</v></c>',
    ),
    row(
      5,
      '<c r="B5" s="3"><f t="shared" si="0"/><v>1234.5</v></c><c r="C5" t="e"><v>#REF!</v></c>',
    ),
  ]),
  "numbers: formats, dates, fractions, a date format's number": oneSheet([
    row(
      2,
      '<c r="A2" s="2"><v>123</v></c><c r="B2" s="3"><v>1234</v></c><c r="C2" s="4"><v>45352</v></c>',
    ),
    row(
      3,
      '<c r="A3" s="5"><v>123</v></c><c r="B3"><v>0.1</v></c><c r="C3" s="1"><v>45352.75</v></c>',
    ),
    row(4, '<c r="A4" t="b"><v>0</v></c><c r="B4" t="n"><v>12</v></c>'),
  ]),
  "1904 dates": oneSheet([row(2, '<c r="A2" s="1"><v>40000</v></c>')], { date1904: true }),
  "cells without a reference follow the cell before; rows out of order, twice, numbered 0":
    oneSheet([
      row(6, `${text("A6", "six")}<c t="inlineStr"><is><t>next</t></is></c>`),
      row(4, text("A4", "four")),
      row(6, text("C6", "six again")),
      row(0, text("A1", "zero")),
    ]),
  "links: a linked cell has no note; a linked formula shows its result even when 0": oneSheet(
    [
      row(
        2,
        '<c r="A2" s="3"><v>1234.5</v></c><c r="B2" t="e"><v>#N/A</v></c><c r="C2"><f>A1*0</f><v>0</v></c>',
      ),
      row(3, '<c r="A3" s="3"><v>9.5</v></c>'),
    ],
    {
      after:
        '<hyperlinks><hyperlink ref="A2" r:id="rId1"/><hyperlink ref="B2" r:id="rId1"/>' +
        '<hyperlink ref="C2" r:id="rId1"/><hyperlink ref="A3" location="S!A1"/></hyperlinks>',
      rels: '<Relationship Id="rId1" Type="hyperlink" Target="mailto:a@example.org" TargetMode="External"/>',
    },
  ),
  "merged cells show their master's value, in rows the part leaves out too": oneSheet(
    [
      row(
        2,
        '<c r="A2" s="3"><v>1234.5</v></c><c r="B2" t="e"><v>#N/A</v></c><c r="C2"><v>7</v></c>',
      ),
      row(3, `<c r="A3" s="1"/>${text("B3", "own")}`),
      row(6, text("D6", "d"), ' s="3" customFormat="1"'),
    ],
    {
      before: '<cols><col min="1" max="4" style="2"/></cols>',
      after:
        '<mergeCells><mergeCell ref="A2:A4"/><mergeCell ref="B2:B3"/><mergeCell ref="C2:D7"/>' +
        '<mergeCell ref="E9:F10"/></mergeCells>',
    },
  ),
};

describe("openXlsx reads a formula's saved result, where exceljs's loader lost it", () => {
  // exceljs keeps a formula's result only when it is truthy, and takes none from an empty <v>
  // (a "" result as spreadsheets save it): both read as never calculated, and were refused.
  test("0, FALSE and an empty text are results; a formula with no <v> still has none", async () => {
    const reading = await readNew(
      await craftWorkbook(
        oneSheet([
          row(
            2,
            '<c r="A2"><f>IF(A1&gt;5000,1,0)</f><v>0</v></c><c r="B2" t="b"><f>A1=1</f><v>0</v></c>' +
              '<c r="C2" t="str"><f>IF(A1,"x","")</f><v></v></c>',
          ),
          row(
            3,
            `<c r="A3" s="1"><f>IF(A1,"x","")</f><v/></c><c r="B3"><f>A1</f></c>${text("C3", "z")}`,
          ),
        ]),
      ),
    );
    expect(reading).toMatchObject({
      rows: [
        { line: 2, values: ["0", "false", null] },
        { line: 3, values: [null, null, "z"] },
      ],
      notes: [
        [2, [[1, { kind: "typed", what: "boolean", format: undefined }]]],
        [3, [[1, { kind: "formula", formula: "A1" }]]],
      ],
    });
  });
});

describe("openXlsx keeps a row whose only content is a formula with no saved result", () => {
  // Dropped as a blank row, it was a change or a person left out without a word.
  test("the row is read, with the formula's note, between the rows around it", async () => {
    const reading = await readNew(
      await craftWorkbook(
        oneSheet([
          row(2, text("A2", "a")),
          row(3, '<c r="A3"><f>1+1</f></c>'),
          row(4, `${text("A4", "b")}<c r="B4"><f>2+2</f></c>`),
        ]),
      ),
    );
    expect(reading).toMatchObject({
      rows: [
        { line: 2, values: ["a", null, null] },
        { line: 3, values: [null, null, null] },
        { line: 4, values: ["b", null, null] },
      ],
      notes: [
        [3, [[0, { kind: "formula", formula: "1+1" }]]],
        [4, [[1, { kind: "formula", formula: "2+2" }]]],
      ],
    });
  });
});

describe("openXlsx reads as exceljs's whole-workbook loader did", () => {
  test.each(Object.entries(CASES))("%s", async (_, book) => {
    const reading = await readBoth(await craftWorkbook(book));
    expect("rows" in reading && reading.rows.length).toBeGreaterThan(0);
  });

  test("shared strings and styles after the sheet (as Excel saves), or before it with the workbook part last", async () => {
    const book: CraftedBook = {
      ...FORMATS,
      strings: "<si><t>Zoë</t></si>",
      sheets: [
        {
          name: "People",
          xml: sheetData(
            HEADER,
            row(2, '<c r="A2" t="s"><v>0</v></c><c r="B2" s="1"><v>45352</v></c>'),
          ),
        },
      ],
    };
    const expected = [{ line: 2, values: ["Zoë", "2024-03-01", null] }];
    const excel = [
      "xl/workbook.xml",
      "xl/worksheets/sheet1.xml",
      "xl/styles.xml",
      "xl/sharedStrings.xml",
    ];
    const late = ["xl/_rels/workbook.xml.rels", "xl/sharedStrings.xml", "xl/worksheets/sheet1.xml"];
    for (const first of [excel, late]) {
      const reading = await readBoth(await craftWorkbook({ ...book, first }));
      expect(reading).toMatchObject({ detail: 'sheet "People"', rows: expected });
    }
  });

  test("the first sheet is the workbook's first, whatever the zip's order; --sheet picks another", async () => {
    const book: CraftedBook = {
      first: ["xl/worksheets/sheet2.xml"],
      sheets: [
        { name: "Staff", xml: sheetData(row(1, text("A1", "staff"))) },
        { name: "Contractors", xml: sheetData(row(3, text("B3", "contractors"))) },
        { name: "Gone", xml: null },
      ],
    };
    const bytes = await craftWorkbook(book);
    expect(await readBoth(bytes)).toMatchObject({ detail: 'sheet "Staff"', columns: ["staff"] });
    expect(await readBoth(bytes, "Contractors")).toMatchObject({ columns: ["", "contractors"] });
    expect(await readBoth(bytes, "Gone")).toEqual({
      error:
        'book.xlsx has no sheet "Gone"; its sheets are "Staff", "Contractors": pass one with --sheet',
    });
  });

  test("a workbook written by exceljs, its strings accented and split between inflated chunks, its parts in either order", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("People");
    sheet.addRow(["id", "name", "joined", "lookup"]);
    for (let i = 1; i <= 4_000; i++) {
      const lookup = i % 97 === 0 ? { formula: "NA()", result: { error: "#N/A" } } : i * 0.5;
      sheet.addRow([i, `Zoë Núñez ${i} 漢字`, new Date(Date.UTC(2024, 0, 1 + (i % 300))), lookup]);
    }
    sheet.getColumn(3).numFmt = "yyyy-mm-dd";
    // exceljs writes the sheet before the shared strings and styles, and the workbook part last.
    const written = Buffer.from(await book.xlsx.writeBuffer());
    const early = [
      "xl/_rels/workbook.xml.rels",
      "xl/sharedStrings.xml",
      "xl/worksheets/sheet1.xml",
    ];
    for (const bytes of [written, await reorderParts(written, early)]) {
      const reading = await readBoth(bytes);
      if (!("rows" in reading)) throw new Error(reading.error);
      expect(reading.rows.filter((r) => r.values.join().includes("\uFFFD"))).toEqual([]);
      expect(reading.rows[96]).toEqual({
        line: 98,
        values: ["97", "Zoë Núñez 97 漢字", "2024-04-07", "#N/A"],
      });
    }
  });

  test("a file that is not a zip, or a zip with no workbook in it", async () => {
    const broken = Buffer.from("PK\u0003\u0004 not really a zip");
    expect(await readBoth(broken)).toMatchObject({
      error: expect.stringMatching(/^book\.xlsx cannot be read as an XLSX workbook \(.+\)$/),
    });
    const notes = new JSZip().file("notes.txt", "no workbook here");
    const zip = await notes.generateAsync({ type: "nodebuffer" });
    expect(await readBoth(zip)).toEqual({ error: "book.xlsx has no sheets" });
  });
});

describe("openXlsx reads rows and cells written without their reference", () => {
  // The format makes `r` optional on both: a row is the one after the row before, a cell the one
  // after the cell before (the first column for the first). exceljs's loader failed such a file.
  test("each takes the place its predecessor implies, beside rows and cells with one", async () => {
    const plain = (value: string) => `<c t="inlineStr"><is><t>${value}</t></is></c>`;
    const reading = await readNew(
      await craftWorkbook(
        oneSheet([
          `<row>${plain("a2")}${plain("b2")}</row>`,
          row(4, plain("a4") + text("C4", "c4")),
          `<row>${text("B5", "b5")}${plain("c5")}</row>`,
        ]),
      ),
    );
    expect(reading).toMatchObject({
      columns: ["a", "b", "c"],
      rows: [
        { line: 2, values: ["a2", "b2", null] },
        { line: 4, values: ["a4", null, "c4"] },
        { line: 5, values: [null, "b5", "c5"] },
      ],
    });
  });
});

describe("openXlsx reads a workbook whose parts bind SpreadsheetML to a prefix", () => {
  /** The same workbook with every element of its SpreadsheetML parts written `x:name`. */
  async function prefixed(bytes: Uint8Array): Promise<Buffer> {
    const zip = await JSZip.loadAsync(bytes);
    for (const name of Object.keys(zip.files).filter((n) => /^xl\/[^_].*\.xml$/.test(n))) {
      const xml = await zip.file(name)?.async("string");
      const renamed = (xml ?? "")
        .replace(/<(\/?)([A-Za-z]+)([\s>/])/g, "<$1x:$2$3")
        .replace(' xmlns="http', ' xmlns:x="http');
      zip.file(name, renamed);
    }
    return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
  }

  test("rows, shared strings and date formats read as in the unprefixed workbook", async () => {
    const book = oneSheet(
      [row(2, `<c r="A2" t="s"><v>0</v></c><c r="B2" s="1"><v>45000</v></c>${text("C2", "c")}`)],
      { strings: "<si><t>shared</t></si>" },
    );
    const plain = await readNew(await craftWorkbook(book));
    expect(plain).toMatchObject({ rows: [{ line: 2, values: ["shared", "2023-03-15", "c"] }] });
    expect(await readNew(await prefixed(await craftWorkbook(book)))).toEqual(plain);
  });
});
