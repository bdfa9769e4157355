/**
 * Shares of an earlier run for recipients this run has none for, against a real SMTP server on
 * 127.0.0.1 and the mail dataset (team-list: split by manager_email; north.lead@ and sales.lead@
 * have rows). A run that mails every share removes team-list's files from the share folders it
 * did not write (a killed run's half files of it too), and a folder left empty; what is not
 * team-list's stays, and so does everything when the run fails before its shares are written. A
 * --mail-only run removes them the same way once its messages are delivered, never a share of a
 * recipient the data still has, and nothing while one of its messages is to be sent again. A
 * report mailed only with rows that has none removes them all. So does a split report that has
 * no rows at the time of a --mail-only run of it and another report, which the addresses named
 * are of, mailed with rows only or always, as a full run of it does.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempFileName } from "../../src/files/leftover-temp-files.js";
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

/** The folders of `tree` that hold `file`. */
const holding = (tree: Record<string, string[]>, file: string) =>
  Object.keys(tree).filter((folder) => tree[folder]?.includes(file));

async function mailTeamList(out: string, ...flags: string[]) {
  return mailReport("team-list", out, ...flags);
}

async function mailReport(report: string, out: string, ...flags: string[]) {
  return mailWith({}, report, out, ...flags);
}

async function mailWith(
  server: Parameters<typeof ws.smtp>[0],
  report: string,
  out: string,
  ...flags: string[]
) {
  const smtp = await ws.smtp(server);
  const run = await runCliIn(ws.dir, reportArgs(report, "--out", out, ...flags), {
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
    // A killed run's half file in the folder of a recipient who left: without its removal the
    // folder would stay for good.
    const dead = spawnSync("true").pid;
    const half = tempFileName(join(out, "split", GONE, "team-list-2020-01-01.csv"), dead);
    await writeFile(half, "half\n");
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

  test("--mail-only removes them once its messages are delivered, not while one is to be sent again", async () => {
    const out = join(ws.dir, "only-out");
    const SALES = "sales.lead@example.com";
    // sales.lead@ still has rows: its share, which --mail-only does not write again, stays.
    await earlierRun(out, { ...EARLIER, [SALES]: ["team-list-2020-01-01.csv"] });
    const both = "compliance@example.com,audit@example.com";
    const refused = { rejectRecipients: ["audit@example.com"] };
    const partly = await mailWith(refused, "team-list", out, "--mail", "--mail-only", both);
    expect(partly.code).not.toBe(0);
    expect(partly.stderr).toContain("audit@example.com");
    let tree = await splitTree(out);
    expect(tree[GONE]).toEqual(EARLIER[GONE]);
    expect(tree[SHARED]).toEqual(EARLIER[SHARED].sort());

    const run = await mailTeamList(out, "--mail", "--mail-only", "north.lead@example.com");
    expect(run.code, run.stderr).toBe(0);
    tree = await splitTree(out);
    expect(tree[GONE]).toBeUndefined();
    expect(tree[SHARED]).toEqual(["notes.txt"]);
    expect(tree[OTHER]).toEqual(["team-chart-2020-01-01.csv"]);
    expect(tree["My folder"]).toEqual(["team-list-2020-01-01.csv"]);
    expect(tree[SALES]).toEqual(["team-list-2020-01-01.csv"]);
    expect(tree["north.lead@example.com"]?.some((f) => f.endsWith(".csv"))).toBe(true);
    expect(run.stderr).toContain(join(out, "split", GONE));
  });

  test("a run that fails before its shares are written leaves the earlier ones", async () => {
    const out = join(ws.dir, "failed-out");
    await earlierRun(out, EARLIER);
    // A file where a share's folder must go: writing that share fails.
    await writeFile(join(out, "split", "sales.lead@example.com"), "in the way\n");
    const run = await mailTeamList(out, "--mail");
    expect(run.code).not.toBe(0);
    expect(existsSync(join(out, "split", GONE, "team-list-2020-01-01.csv"))).toBe(true);
    // The error names the file in the way, not the --out the user gave as if it were a file.
    const blocked = join(out, "split", "sales.lead@example.com");
    expect(run.stderr).toContain(
      `${blocked} is a file where a share folder of the split mail goes`,
    );
    expect(run.stderr).not.toContain(`--out ${out}`);
  });

  test("a report mailed only with rows, with none, removes the earlier shares it would replace", async () => {
    // team-list narrowed to a group nobody is in: no rows, so no share and no message.
    const report = {
      ...JSON.parse(await readFile(join(ws.dir, "cat", "reports", "team-list.json"), "utf8")),
    };
    report.params = { group_id: 9 };
    report.mail = { ...report.mail, when: "rows" };
    await writeFile(join(ws.dir, "cat", "reports", "team-list-rows.json"), JSON.stringify(report));
    const out = join(ws.dir, "rows-out");
    await earlierRun(out, {
      [GONE]: ["team-list-2020-01-01.csv"],
      [SHARED]: ["team-list-2020-01-01.csv", "notes.txt"],
    });
    const run = await mailReport("team-list-rows", out, "--mail");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("no rows: report not mailed");
    expect(await splitTree(out)).toEqual({ [SHARED]: ["notes.txt"] });

    // split/ a file: nothing of an earlier run to remove, said, and the run goes on.
    const blocked = join(ws.dir, "rows-blocked-out");
    await mkdir(blocked, { recursive: true });
    await writeFile(join(blocked, "split"), "in the way\n");
    const past = await mailReport("team-list-rows", blocked, "--mail");
    expect(past.code, past.stderr).toBe(0);
    expect(past.stderr).toContain("the shares of earlier runs could not be listed");
  });

  for (const when of ["rows", "always"] as const) {
    test(`--mail-only of another report removes those of a split report with no rows now (when: "${when}"), as a full run does`, async () => {
      // team-list narrowed to a group nobody is in, under file names of its own.
      const name = `empty-split-${when}`;
      const report = {
        ...JSON.parse(await readFile(join(ws.dir, "cat", "reports", "team-list.json"), "utf8")),
      };
      report.params = { group_id: 9 };
      report.fileName = `${name}-{date}`;
      report.mail = { ...report.mail, when };
      await writeFile(join(ws.dir, "cat", "reports", `${name}.json`), JSON.stringify(report));
      const NORTH = "north.lead@example.com";
      const earlier = `${name}-2020-01-01.csv`;
      const files = {
        [GONE]: [earlier],
        [NORTH]: [earlier],
        [SHARED]: [earlier, "notes.txt"],
        unassigned: [earlier],
      };

      // A full run of it: none of its earlier shares is left.
      const full = join(ws.dir, `${name}-full-out`);
      await earlierRun(full, files);
      const whole = await mailReport(name, full, "--mail");
      expect(whole.code, whole.stderr).toBe(0);
      const fullTree = await splitTree(full);
      expect(fullTree[GONE]).toBeUndefined();
      expect(fullTree[NORTH]).toBeUndefined();
      expect(fullTree[SHARED]).toEqual(["notes.txt"]);

      // Sent again only to north.lead@, whom team-list has rows for and the empty report none.
      const out = join(ws.dir, `${name}-only-out`);
      await earlierRun(out, files);
      // An address no message goes to: refused before anything is sent, nothing removed.
      const refused = await mailReport("team-list", out, name, "--mail", "--mail-only", OTHER);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`no message of this run goes to ${OTHER}`);
      // Mailed only with rows, it has none: not named among the reports mailed.
      if (when === "rows") expect(refused.stderr).toContain("(reports mailed: team-list)");
      expect(holding(await splitTree(out), earlier).sort()).toEqual(Object.keys(files).sort());
      const run = await mailReport("team-list", out, name, "--mail", "--mail-only", NORTH);
      expect(run.code, run.stderr).toBe(0);
      const tree = await splitTree(out);
      expect(tree[GONE]).toBeUndefined();
      expect(tree[SHARED]).toEqual(["notes.txt"]);
      // north.lead@'s folder holds team-list's share, written again, and no more of the other.
      expect(tree[NORTH]?.some((f) => f.startsWith("team-list-"))).toBe(true);
      expect(tree[NORTH]).not.toContain(earlier);
      // The copy of the rows without an address, which stays in a full run mailed always.
      expect(holding(tree, earlier)).toEqual(holding(fullTree, earlier));
    });
  }
});
