/**
 * The `mail` block of a report definition: defaults, and every mistake named by file and field.
 * Also the default body renderer: everything from the data HTML-escaped, the cut-off line.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { escapeHtml, renderMailBody } from "../../src/mail/body.js";
import { type Catalog, loadCatalog } from "../../src/report/catalog.js";
import { projectRoot } from "../../src/report/project-root.js";
import { parseReportFile } from "../../src/report/report-file.js";

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
  test("defaults: no cc, the title and date as subject, every format, always", () => {
    expect(parse({ to: ["A@Example.com"] }).mail).toEqual({
      to: ["a@example.com"],
      cc: [],
      subject: "{title} ({date})",
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
      "reports/t.json: field mail.subject: unknown placeholder {week}; use {title}, {date}",
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
    [{ to: ["a@example.com"], bcc: ["x@example.com"] }, "reports/t.json: field mail"],
  ])("%j is refused", (mail, message) => {
    expect(() => parse(mail)).toThrow(message);
  });
});

describe("renderMailBody", () => {
  const input = {
    title: "Overdue <script>alert(1)</script>",
    description: 'A & B "quoted"',
    generatedAt: new Date("2026-11-23T06:00:00Z"),
    loadedAt: null,
    counts: [{ query: "q", title: "Q <i>", rows: 3 }],
    table: {
      labels: ["Name <x>"],
      rows: [["<img src=x onerror=alert(1)>"], ["O'Brien & co"]],
      totalRows: 3,
    },
    attachments: ["t-2026-11-23.xlsx"],
  };

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
  });
});
