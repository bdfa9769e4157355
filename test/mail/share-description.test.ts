/**
 * A split report whose other queries are left out of each share (the weekly-compliance case):
 * each share's About sheet and message body give the report's description followed by what that
 * copy holds, while the whole report's workbook keeps its own description. A real SMTP server
 * and the mail dataset (test/mail/mail-dataset.ts), whose group admins are the managers.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { describe, expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();

const DESCRIPTION = "Summary: totals for everyone. Compliance: one row per person and course.";
const HOLDS =
  'This copy holds only "Compliance: required products per person", with only the rows for north.lead@example.com; the report\'s other parts are left out of it.';

/** The About sheet's Description of the workbook `content`. */
async function descriptionOf(content: Buffer | undefined): Promise<unknown> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((content ?? Buffer.alloc(0)) as unknown as ArrayBuffer);
  let found: unknown;
  book.getWorksheet("About")?.eachRow((row) => {
    if (row.getCell(1).value === "Description") found = row.getCell(2).value;
  });
  return found;
}

describe("a share's description", () => {
  test("says which parts the share holds, and the whole report's is unchanged", async () => {
    await mkdir(join(ws.dir, "weekly", "reports"), { recursive: true });
    await writeFile(
      join(ws.dir, "weekly", "reports", "weekly.json"),
      JSON.stringify({
        title: "Weekly",
        description: DESCRIPTION,
        queries: ["compliance", "compliance-summary"],
        formats: ["xlsx"],
        fileName: "weekly",
        mail: { to: ["compliance@example.com"], splitBy: "manager_email", attach: ["xlsx"] },
      }),
    );
    const out = join(ws.dir, "weekly-out");
    const { run, received } = await ws.mailed(
      ["report", "weekly", "--catalog", "weekly", "--db", "lms.duckdb", "--mail"],
      (url) => ({ LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com", LMS_OUT: out }),
    );
    expect(run.stderr).not.toContain("lms-export:");
    expect(run.code).toBe(0);
    const north = received.find((m) => m.to.join() === "north.lead@example.com");
    expect(await descriptionOf(north?.parsed.attachments[0]?.content)).toBe(
      `${DESCRIPTION} ${HOLDS}`,
    );
    expect(String(north?.parsed.text)).toContain(HOLDS);
    expect(String(north?.parsed.html)).toContain("This copy holds only");
    const rest = received.find((m) => m.to.join() === "compliance@example.com");
    expect(String(rest?.parsed.text)).toContain(
      "with only the rows whose Manager is empty or is not an e-mail address; the report's other parts are left out of it.",
    );
    const whole = await descriptionOf(await readFile(join(out, "weekly.xlsx")));
    expect(whole).toBe(DESCRIPTION);
  });
});
