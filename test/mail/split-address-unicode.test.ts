/**
 * One manager's address written in two Unicode forms gets one message: "Jürgen@example.com" as a
 * Mac types it (NFD: "u" and a combining diaeresis) and "jürgen@example.com" as composed (NFC),
 * and "İlker@example.com" with "i̇lker@example.com", which DuckDB's lower() and toLowerCase() turn
 * into different addresses, and "Chef@Bücher.de" with "chef@xn--bcher-kva.de", its domain in the
 * ASCII form a mail system may export. The split keys every address with one function (normaliseAddress in
 * src/mail/address.ts), so these are one share each; mailed to a real SMTP server on 127.0.0.1
 * offering SMTPUTF8. The share folder an earlier version named with the domain's ASCII form
 * (`split/chef@xn--bcher-kva.de/`) goes, as a stale share does, leaving the one in Unicode form.
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();

const JURGEN_NFD = "J\u0075\u0308rgen@example.com";
const JURGEN_NFC = "j\u00fcrgen@example.com";
const ILKER_CAPITAL = "\u0130lker@example.com";
/** "İ" lower-cased as Unicode does it: "i" and a combining dot above. */
const ILKER_LOWER = "i\u0307lker@example.com";
/**
 * One mailbox whose domain rows write in its Unicode and its ASCII (IDNA) form; smtp-server gives
 * a recipient's domain in its Unicode form, whatever form it came in.
 */
const CHEF = "chef@bücher.de";

const MANAGERS_SQL = `-- title: Managers
-- description: Managers in two Unicode forms.
SELECT * FROM (VALUES
  (1, '${JURGEN_NFD}'),
  (2, '${JURGEN_NFC}'),
  (3, '${ILKER_CAPITAL}'),
  (4, '${ILKER_LOWER}'),
  (5, NULL),
  (6, 'Chef@Bücher.de'),
  (7, 'CHEF@XN--BCHER-KVA.DE'),
  (8, 'chef@xn--bcher-kva.de')
) AS t(user_id, manager_email)
`;

test("an address in NFD and NFC, with İ, or its domain in two forms, is one manager with one message", async () => {
  const catalog = join(ws.dir, "unicode-cat");
  await mkdir(join(catalog, "reports"), { recursive: true });
  await mkdir(join(catalog, "queries"), { recursive: true });
  await writeFile(join(catalog, "queries", "managers.sql"), MANAGERS_SQL);
  await writeFile(
    join(catalog, "reports", "unicode-mail.json"),
    JSON.stringify({
      title: "Managers",
      description: "Managers in two forms.",
      queries: ["managers"],
      formats: ["csv"],
      fileName: "managers",
      mail: { to: ["compliance@example.com"], splitBy: "manager_email", attach: ["csv"] },
    }),
  );
  const out = join(ws.dir, "unicode-out");
  // An earlier version keyed the domain as the cell wrote it: its folder of Chef's share.
  const earlier = join(out, "split", "chef@xn--bcher-kva.de");
  await mkdir(earlier, { recursive: true });
  await writeFile(join(earlier, "managers.csv"), "earlier\n");
  const { run, received } = await ws.mailed(
    ["report", "unicode-mail", "--catalog", catalog, "--db", "lms.duckdb", "--out", out, "--mail"],
    (url) => ({ LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com" }),
  );
  expect(run.code, run.stderr).toBe(0);
  const ids = (to: string) => {
    const csv = received.find((m) => m.to.join() === to)?.parsed.attachments[0]?.content;
    return [...String(csv).matchAll(/^(\d+),/gm)].map((m) => Number(m[1]));
  };
  expect(received.map((m) => m.to.join()).sort()).toEqual(
    ["compliance@example.com", JURGEN_NFC, ILKER_LOWER, CHEF].sort(),
  );
  expect(ids(JURGEN_NFC)).toEqual([1, 2]);
  expect(ids(ILKER_LOWER)).toEqual([3, 4]);
  expect(ids("compliance@example.com")).toEqual([5]);
  expect(ids(CHEF)).toEqual([6, 7, 8]);
  expect((await readdir(join(out, "split"))).sort()).toEqual(
    ["unassigned", JURGEN_NFC, ILKER_LOWER, CHEF].sort(),
  );
});
