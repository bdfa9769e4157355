/**
 * Shares of an earlier run for recipients this run has none for, against a real SMTP server on
 * 127.0.0.1 and the mail dataset (team-list: split by manager_email; north.lead@ and sales.lead@
 * have rows). A run that mails every share removes team-list's files from the share folders it
 * did not write, and a folder left empty; what is not team-list's stays, and so does everything
 * with --mail-only, or when the run fails before its shares are written.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { reportArgs, runCliIn, useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();

const GONE = "gone.lead@example.com";
const SHARED = "shared.lead@example.com";
const OTHER = "other.lead@example.com";

/** Files of an earlier run under `out`/split: `files` by folder. */
async function earlierRun(out: string, files: Record<string, string[]>): Promise<void> {
  for (const [folder, names] of Object.entries(files)) {
    await mkdir(join(out, "split", folder), { recursive: true });
    for (const name of names) await writeFile(join(out, "split", folder, name), "earlier\n");
  }
}

/** What `out`/split holds: each folder's files, sorted; a plain file as its name alone. */
async function splitTree(out: string): Promise<Record<string, string[]>> {
  const tree: Record<string, string[]> = {};
  for (const entry of await readdir(join(out, "split"), { withFileTypes: true })) {
    const path = join(out, "split", entry.name);
    tree[entry.name] = entry.isDirectory() ? (await readdir(path)).sort() : [];
  }
  return tree;
}

async function mailTeamList(out: string, ...flags: string[]) {
  const smtp = await ws.smtp();
  const run = await runCliIn(ws.dir, reportArgs("team-list", "--out", out, ...flags), {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: "reports@example.com",
  });
  await smtp.close();
  return run;
}

/** An earlier run's leftovers: a share of its own, and folders shared with what is not its. */
const EARLIER = {
  [GONE]: ["team-list-2020-01-01.csv", "team-list-2020-01-01.xlsx"],
  [SHARED]: ["team-list-2020-01-01.csv", "notes.txt"],
  [OTHER]: ["team-chart-2020-01-01.csv"],
  "My folder": ["team-list-2020-01-01.csv"],
};

describe("shares of an earlier run", () => {
  test("a run mailing every share leaves split/ with its own shares and what is not the report's", async () => {
    const out = join(ws.dir, "full-out");
    await earlierRun(out, EARLIER);
    await writeFile(join(out, "split", "README.txt"), "the user's own\n");
    const run = await mailTeamList(out, "--mail");
    expect(run.code, run.stderr).toBe(0);
    const tree = await splitTree(out);
    expect(Object.keys(tree).sort()).toEqual(
      [
        "My folder",
        "README.txt",
        "north.lead@example.com",
        OTHER,
        "sales.lead@example.com",
        SHARED,
        "unassigned",
      ].sort(),
    );
    expect(tree[SHARED]).toEqual(["notes.txt"]);
    expect(tree[OTHER]).toEqual(["team-chart-2020-01-01.csv"]);
    expect(tree["My folder"]).toEqual(["team-list-2020-01-01.csv"]);
    expect(tree["north.lead@example.com"]?.some((f) => f.endsWith(".csv"))).toBe(true);
    expect(run.stderr).toContain(join(out, "split", GONE));
  });

  test("--mail-only leaves the other shares' folders alone", async () => {
    const out = join(ws.dir, "only-out");
    await earlierRun(out, EARLIER);
    const run = await mailTeamList(out, "--mail", "--mail-only", "north.lead@example.com");
    expect(run.code, run.stderr).toBe(0);
    const tree = await splitTree(out);
    expect(tree[GONE]).toEqual(EARLIER[GONE]);
    expect(tree[SHARED]).toEqual(EARLIER[SHARED].sort());
  });

  test("a run that fails before its shares are written leaves the earlier ones", async () => {
    const out = join(ws.dir, "failed-out");
    await earlierRun(out, EARLIER);
    // A file where a share's folder must go: writing that share fails.
    await writeFile(join(out, "split", "sales.lead@example.com"), "in the way\n");
    const run = await mailTeamList(out, "--mail");
    expect(run.code).not.toBe(0);
    expect(existsSync(join(out, "split", GONE, "team-list-2020-01-01.csv"))).toBe(true);
  });
});
