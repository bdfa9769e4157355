/**
 * The subject of a split report's messages, against a real SMTP server on 127.0.0.1 and the mail
 * dataset (test/mail/token-catalog.ts): with the default subject, a manager's message reads as the
 * report's and the copy of the rows without an address, which goes to the report's own
 * recipients, says that it holds those rows; a subject with {share} names each message's share.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCliIn, useMailWorkspace } from "./cli-harness.js";
import { MANAGERS } from "./mail-dataset.js";
import { writeTokensCatalog } from "./token-catalog.js";

const ws = useMailWorkspace();
const MANAGER_ADDRESSES = Object.keys(MANAGERS);

/** The subject of each message of the `tokens` report mailed with `mailFields`, by recipient. */
async function subjects(name: string, mailFields: Record<string, unknown> = {}) {
  const catalog = join(ws.dir, `${name}-cat`);
  await writeTokensCatalog(catalog, "", mailFields);
  const smtp = await ws.smtp();
  const args = ["report", "tokens", "--catalog", catalog, "--db", "lms.duckdb"];
  const run = await runCliIn(ws.dir, [...args, "--out", join(ws.dir, `${name}-out`), "--mail"], {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: "reports@example.com",
    LMS_QUIET: "1",
  });
  await smtp.close();
  expect(run.code, run.stderr).toBe(0);
  const byRecipient = new Map(smtp.received.map((m) => [m.to.join(","), m.parsed.subject ?? ""]));
  return { byRecipient, count: smtp.received.length };
}

describe("the subjects of a split report's messages", () => {
  test("by default the copy of the rows without an address says so; managers' read as the report's", async () => {
    const { byRecipient, count } = await subjects("default");
    expect(count).toBe(MANAGER_ADDRESSES.length + 1);
    for (const manager of MANAGER_ADDRESSES)
      expect(byRecipient.get(manager)).toMatch(/^Tokens \(\d{4}-\d\d-\d\d\)$/);
    expect(byRecipient.get("compliance@example.com")).toMatch(
      /^Tokens \(\d{4}-\d\d-\d\d\), unassigned rows$/,
    );
  });

  test("{share} names the manager in a share and the unassigned rows in the copy", async () => {
    const { byRecipient } = await subjects("share", { subject: "{title} for {share}" });
    for (const manager of MANAGER_ADDRESSES)
      expect(byRecipient.get(manager)).toBe(`Tokens for ${manager}`);
    expect(byRecipient.get("compliance@example.com")).toBe("Tokens for unassigned rows");
  });

  test("a subject of one's own without {share} is kept for every message", async () => {
    const { byRecipient } = await subjects("own", { subject: "{title}: team list" });
    expect(new Set(byRecipient.values())).toEqual(new Set(["Tokens: team list"]));
  });
});
