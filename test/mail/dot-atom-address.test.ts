/**
 * A local part that is no dot-atom (RFC 5322: `dot.@example.com`, `.dot@…`, `a..b@…`) is not an
 * address: an SMTP server refuses it in RCPT TO (`501 Bad recipient address syntax`), so a
 * manager so written in a roster got a share that could only fail to send, and a `--mail-only`
 * that could only fail again. Its rows go to the report's own recipients with the warning that
 * names values that are not addresses, as `Boss <b@example.com>` does. End to end with a split
 * mailed to a real SMTP server on 127.0.0.1 (the mail dataset, test/mail/mail-dataset.ts).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { isMailAddress } from "../../src/mail/address.js";
import { useMailWorkspace } from "./cli-harness.js";

describe("a dot in the local part", () => {
  test.each(["dot.@example.com", ".dot@example.com", "a..b@example.com", "jürgen.@example.com"])(
    "%s is not an address",
    (text) => {
      expect(isMailAddress(text)).toBe(false);
    },
  );

  test.each(["a.b@example.com", "a.b.c@example.com", "jürgen.groß@example.com"])(
    "%s is one",
    (text) => {
      expect(isMailAddress(text)).toBe(true);
    },
  );
});

const ws = useMailWorkspace();

const SQL = `-- title: Dotted managers
-- description: Managers' addresses, one of them no address.
SELECT * FROM (VALUES
  (1, 'sales.lead@example.com'),
  (2, 'dot.@example.com'),
  (3, 'Boss <b@example.com>')
) AS t(user_id, manager_email)
`;

test("rows of a manager written dot.@example.com go to the report's recipients, with a warning", async () => {
  const catalog = join(ws.dir, "dotted-cat");
  await mkdir(join(catalog, "reports"), { recursive: true });
  await mkdir(join(catalog, "queries"), { recursive: true });
  await writeFile(join(catalog, "queries", "dotted.sql"), SQL);
  await writeFile(
    join(catalog, "reports", "dotted-mail.json"),
    JSON.stringify({
      title: "Dotted",
      description: "Managers with odd addresses.",
      queries: ["dotted"],
      formats: ["csv"],
      fileName: "dotted",
      mail: { to: ["compliance@example.com"], splitBy: "manager_email", attach: ["csv"] },
    }),
  );
  const out = join(ws.dir, "dotted-out");
  const { run, received } = await ws.mailed(
    ["report", "dotted-mail", "--catalog", catalog, "--db", "lms.duckdb", "--out", out, "--mail"],
    (url) => ({ LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com" }),
  );
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toContain("not e-mail addresses");
  expect(run.stderr).toContain("dot.@example.com");
  const ids = (to: string) => {
    const csv = received.find((m) => m.to.join() === to)?.parsed.attachments[0]?.content;
    return [...String(csv).matchAll(/^(\d+),/gm)].map((m) => Number(m[1]));
  };
  expect(received.map((m) => m.to.join()).sort()).toEqual([
    "compliance@example.com",
    "sales.lead@example.com",
  ]);
  expect(ids("sales.lead@example.com")).toEqual([1]);
  expect(ids("compliance@example.com")).toEqual([2, 3]);
});
