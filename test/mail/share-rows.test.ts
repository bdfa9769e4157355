/**
 * The files of a share of a split report say which rows they hold: the About sheet has a "Rows"
 * line and the HTML page a line under the description. They told nothing of it (the whole
 * report's About sheet and header), so a manager's file forwarded or opened later read as the
 * whole report; only the message body said whose rows it held. The whole report's own files have
 * no such line, and the body keeps its own line only. The shipped team-compliance report, split
 * per manager, mailed to a real SMTP server on 127.0.0.1 (test/mail/mail-dataset.ts).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";
import { mailEnv, teamComplianceMail, writeTeamCatalog } from "./team-catalog.js";

const ws = useMailWorkspace();

/** The About sheet's lines of `file` as label → value. */
async function about(file: string): Promise<Map<string, string>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const lines = new Map<string, string>();
  book.getWorksheet("About")?.eachRow((row) => {
    lines.set(String(row.getCell(1).value), String(row.getCell(2).value));
  });
  return lines;
}

test("each share's workbook and page say whose rows they hold", async () => {
  await writeTeamCatalog(ws.dir, ["xlsx", "html"], ["xlsx", "html"]);
  const out = join(ws.dir, "team-out");
  const { run, received } = await ws.mailed(teamComplianceMail(), (url) => mailEnv(url, out));
  expect(run.code, run.stderr).toBe(0);
  const name = `team-compliance-${new Date().toISOString().slice(0, 10)}`;
  const shares = {
    "sales.lead@example.com": "Only the rows whose Manager is sales.lead@example.com.",
    unassigned: "Only the rows whose Manager is empty or is not an e-mail address.",
  };
  for (const [folder, rows] of Object.entries(shares)) {
    const file = join(out, "split", folder, name);
    expect((await about(`${file}.xlsx`)).get("Rows")).toBe(rows);
    // Counted over the whole report, not the manager's people: a share does not say it.
    expect((await about(`${file}.xlsx`)).has("People left out as gone")).toBe(false);
    expect(await readFile(`${file}.html`, "utf8")).toContain(`<p class="meta">${rows}</p>`);
  }
  expect((await about(join(out, `${name}.xlsx`))).has("Rows")).toBe(false);
  expect((await about(join(out, `${name}.xlsx`))).has("People left out as gone")).toBe(true);
  expect(await readFile(join(out, `${name}.html`), "utf8")).not.toContain("Only the rows");
  const body = received.find((m) => m.to.join() === "sales.lead@example.com")?.parsed.html;
  expect(String(body)).toContain("Only your rows: those whose Manager is sales.lead@example.com.");
  expect(String(body)).not.toContain(shares["sales.lead@example.com"]);
});
