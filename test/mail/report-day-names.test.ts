/**
 * `{today}` in a report's file name and mail subject is the day the report is as of, its
 * queries' `today`: with `--param today=2026-03-01` the figures are March's, and `{date}` (the
 * day the report was made) would name them after the day of the run. Without the parameter it is
 * the day of the run. Mailed to a real SMTP server on 127.0.0.1; the files read back from disk.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";
import { mailEnv } from "./team-catalog.js";

const ws = useMailWorkspace();

/** A catalog whose report `as-of` names its files and subject by {today} and {date}. */
async function writeCatalog(): Promise<void> {
  await mkdir(join(ws.dir, "asof", "reports"), { recursive: true });
  await writeFile(
    join(ws.dir, "asof", "reports", "as-of.json"),
    JSON.stringify({
      title: "Compliance as of a day",
      description: "Where everyone stood on the reference day.",
      queries: ["compliance-summary"],
      formats: ["csv"],
      fileName: "as-of-{today}-made-{date}",
      mail: { to: ["compliance@example.com"], subject: "{title}: {today} (made {date})" },
    }),
  );
}

const args = (out: string, ...extra: string[]) => [
  "report",
  "as-of",
  "--catalog",
  "asof",
  "--db",
  "lms.duckdb",
  "--out",
  out,
  "--mail",
  ...extra,
];

test("{today} is the reference day the report was made for, {date} the day it was made", async () => {
  await writeCatalog();
  const made = new Date().toISOString().slice(0, 10);
  const out = join(ws.dir, "as-of-march");
  const { run, received } = await ws.mailed(args(out, "--param", "today=2026-03-01"), (url) =>
    mailEnv(url, out),
  );
  expect(run.code, run.stderr).toBe(0);
  const name = `as-of-2026-03-01-made-${made}.csv`;
  expect(await readdir(out)).toEqual([name]);
  expect(await readFile(join(out, name), "utf8")).toContain("overall");
  expect(received.map((m) => m.parsed.subject)).toEqual([
    `Compliance as of a day: 2026-03-01 (made ${made})`,
  ]);
  expect(received[0]?.parsed.attachments.map((a) => a.filename)).toEqual([name]);

  const plain = join(ws.dir, "as-of-now");
  const again = await ws.mailed(args(plain), (url) => mailEnv(url, plain));
  expect(again.run.code, again.run.stderr).toBe(0);
  expect(await readdir(plain)).toEqual([`as-of-${made}-made-${made}.csv`]);
  expect(again.received[0]?.parsed.subject).toBe(`Compliance as of a day: ${made} (made ${made})`);
});
