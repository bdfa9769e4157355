/**
 * The `mail` block of a report definition: defaults, and every mistake named by file and field;
 * the subject it gives, filled in.
 * Also the default body renderer: everything from the data HTML-escaped, the cut-off line.
 */
import { beforeAll, describe, expect, test } from "vitest";
import {
  BODY_HTML_BUDGET,
  MAX_BODY_ROWS,
  MIN_BODY_ROWS,
  renderMailBody,
} from "../../src/mail/body.js";
import {
  defaultSubject,
  defaultUnassignedSubject,
  expandSubject,
  shareName,
} from "../../src/mail/mail-block.js";
import { type Catalog, loadCatalog } from "../../src/report/catalog.js";
import { escapeHtml } from "../../src/report/html/escape.js";
import type { ReportDocument } from "../../src/report/html/report-document.js";
import { projectRoot } from "../../src/report/project-root.js";
import { parseReportFile } from "../../src/report/report-file.js";
import { mailDocument } from "./mail-document.js";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(projectRoot());
});

function parse(mail: unknown) {
  const text = JSON.stringify({
    title: "T",
    description: "D",
    queries: ["compliance", "access"],
    formats: ["xlsx", "csv"],
    fileName: "t-{date}",
    mail,
  });
  return parseReportFile(text, { name: "t", file: "reports/t.json", queries: catalog.queries });
}

describe("the mail block", () => {
  test("defaults: no cc, the default subject, every format, always", () => {
    expect(parse({ to: ["A@Example.com"] }).mail).toEqual({
      to: ["a@example.com"],
      cc: [],
      // Left to the mail: the default names the portal when the report is made for one.
      subject: undefined,
      attach: undefined,
      when: "always",
      whenQuery: undefined,
      splitBy: undefined,
    });
  });

  test.each([
    [{ to: [] }, "reports/t.json: field mail.to: must name at least one address"],
    [
      { to: ["not-an-address"] },
      "reports/t.json: field mail.to[0]: must be a plain e-mail address",
    ],
    [
      { to: ["a@example.com"], cc: ["Boss <b@example.com>"] },
      "reports/t.json: field mail.cc[0]: must be a plain e-mail address",
    ],
    [
      { to: ["a@example.com"], subject: "{title} {week}" },
      "reports/t.json: field mail.subject: unknown placeholder {week}; use {title}, {date}, {today}, {portal}",
    ],
    [{ to: ["a@example.com"], attach: ["pdf"] }, "reports/t.json: field mail.attach[0]:"],
    [
      { to: ["a@example.com"], attach: ["csv", "csv"] },
      "reports/t.json: field mail.attach: lists a format twice",
    ],
    [{ to: ["a@example.com"], when: "sometimes" }, "reports/t.json: field mail.when:"],
    [
      { to: ["a@example.com"], whenQuery: "completion" },
      'reports/t.json: field mail.whenQuery: "completion" is not one of the report\'s queries: compliance, access',
    ],
    [
      { to: ["a@example.com"], splitBy: "manager email" },
      "reports/t.json: field mail.splitBy: must be a column name",
    ],
    [
      { to: ["a@example.com"], bcc: ["x@example.com"] },
      "reports/t.json: unknown field mail.bcc (the fields of mail are to, cc, subject,",
    ],
  ])("%j is refused", (mail, message) => {
    expect(() => parse(mail)).toThrow(message);
  });

  test("a subject may name the portal", () => {
    const subject = "[{portal}] {title}: {date}";
    expect(parse({ to: ["a@example.com"], subject }).mail?.subject).toBe(subject);
  });
});

describe("the subject", () => {
  const now = new Date("2026-11-26T07:00:00Z");
  const title = "Weekly compliance";
  const today = "2026-11-26";

  test("the default names the portal of a report made for one, and only then", () => {
    const expand = (portal: string | undefined) =>
      expandSubject(defaultSubject(portal), { title, now, today, portal });
    expect(expand("emea")).toBe("Weekly compliance, emea (2026-11-26)");
    expect(expand(undefined)).toBe("Weekly compliance (2026-11-26)");
  });

  test("{portal} is the portal's name, or empty with the spaces before it", () => {
    const subject = "{portal} {title} {portal} ({date})";
    expect(expandSubject(subject, { title, now, today, portal: "emea" })).toBe(
      "emea Weekly compliance emea (2026-11-26)",
    );
    expect(expandSubject(subject, { title, now, today, portal: undefined })).toBe(
      "Weekly compliance (2026-11-26)",
    );
  });

  test("{share} names a split message's share, and is empty with the spaces before it in a whole one", () => {
    const subject = "{title} {share} ({date})";
    const values = { title, now, today, portal: undefined };
    expect(expandSubject(subject, { ...values, share: "boss@example.com" })).toBe(
      "Weekly compliance boss@example.com (2026-11-26)",
    );
    expect(expandSubject(subject, values)).toBe("Weekly compliance (2026-11-26)");
    const unassigned = expandSubject(defaultUnassignedSubject("emea"), {
      ...values,
      portal: "emea",
      share: shareName({ address: undefined }),
    });
    expect(unassigned).toBe("Weekly compliance, emea (2026-11-26), unassigned rows");
  });

  test("a subject left empty by {share} or {portal} with nothing to say is the report's title", () => {
    const values = { title, now, today, portal: undefined };
    expect(expandSubject("{share}", values)).toBe("Weekly compliance");
    expect(expandSubject(" {portal} {share}", values)).toBe("Weekly compliance");
    expect(expandSubject("{share}", { ...values, share: "boss@example.com" })).toBe(
      "boss@example.com",
    );
  });

  test("a title holding a placeholder's name is left as it is", () => {
    const odd = "Due {date} {portal}";
    expect(expandSubject("{title}", { title: odd, now, today, portal: "emea" })).toBe(odd);
  });
});

describe("renderMailBody", () => {
  const document: ReportDocument = mailDocument(
    { title: "Overdue <script>alert(1)</script>", description: 'A & B "quoted"' },
    [
      {
        query: "q",
        title: "Q <i>",
        columns: [{ name: "name", label: "Name <x>", kind: "text" }],
        rows: [["<img src=x onerror=alert(1)>"], ["O'Brien & co"]],
        totalRows: 3,
        fullFile: "t-2026-11-23.xlsx",
      },
    ],
  );
  const input = { document, attachments: ["t-2026-11-23.xlsx"] };

  test("escapes every text from the report and the data", () => {
    const { html } = renderMailBody(input);
    expect(html).not.toMatch(/<script>|<img|<i>|<x>/);
    expect(html).toContain(escapeHtml("<img src=x onerror=alert(1)>"));
    expect(html).toContain("O&#39;Brien &amp; co");
    expect(html).toContain("A &amp; B &quot;quoted&quot;");
  });

  test("says when rows were cut and that the full list is attached, in both parts", () => {
    const { html, text } = renderMailBody(input);
    const line =
      "The first 2 of 3 rows are shown; the full list is attached: see t-2026-11-23.xlsx.";
    expect(text).toContain(line);
    expect(html).toContain(escapeHtml(line));
    expect(text).toContain("no successful extract recorded");
    expect(text).toContain("O'Brien & co");
  });

  test("without an attachment holding every row, the cut line says none is attached", () => {
    const table = {
      ...document.tables[0],
      fullFile: undefined,
    } as ReportDocument["tables"][number];
    const { text } = renderMailBody({
      document: { ...document, tables: [table] },
      attachments: [],
    });
    expect(text).toContain(
      "The first 2 of 3 rows are shown; the full list is in the report's xlsx, csv or parquet files, none of them attached.",
    );
    expect(text).not.toContain("Attached:");
  });

  test("a table cut to fewer rows than the body shows says so, without the data", () => {
    const long = {
      ...document.tables[0],
      rows: Array.from({ length: 250 }, (_, i) => [`row ${i}`]),
      totalRows: 250,
    } as ReportDocument["tables"][number];
    const { html, text } = renderMailBody({ ...input, document: { ...document, tables: [long] } });
    expect(html).toContain(">row 49<");
    expect(html).not.toContain(">row 50<");
    expect(text).toContain("row 49\n");
    expect(text).not.toContain("row 50");
    expect(text).toContain(
      `The first ${MAX_BODY_ROWS} of 250 rows are shown; the full list is attached`,
    );
  });

  test("a body of many wide tables shows fewer rows, so that mail readers do not clip it", () => {
    const columns = Array.from({ length: 9 }, (_, c) => ({
      name: `c${c}`,
      label: `Column ${c}`,
      kind: c % 2 === 0 ? ("text" as const) : ("integer" as const),
    }));
    const wide = (query: string) => ({
      query,
      title: query,
      columns,
      rows: Array.from({ length: 300 }, (_, r) =>
        columns.map((_, c) => (c % 2 === 0 ? `person.${r}@example.com` : r * c)),
      ),
      totalRows: 3000,
      fullFile: `${query}.xlsx`,
    });
    const tables = ["a", "b", "c", "d", "e", "f"].map(wide) as ReportDocument["tables"];
    const { html, text } = renderMailBody({ ...input, document: { ...document, tables } });
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(BODY_HTML_BUDGET);
    const shown = /The first (\d+) of 3,000 rows are shown/.exec(text)?.[1];
    expect(Number(shown)).toBeLessThan(MAX_BODY_ROWS);
    expect(Number(shown)).toBeGreaterThanOrEqual(MIN_BODY_ROWS);
    // Both parts show the same rows.
    expect(html).toContain(`>person.${Number(shown) - 1}@example.com<`);
    expect(html).not.toContain(`>person.${shown}@example.com<`);
    expect(text).toContain(`person.${Number(shown) - 1}@example.com`);
    expect(text).not.toContain(`person.${shown}@example.com`);
  });
});
