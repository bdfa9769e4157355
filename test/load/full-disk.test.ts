/**
 * A disk that fills up while the extract writes its records into the database file: the run
 * fails (exit 1) saying where space ran out, and nothing is lost: once there is room, the next
 * command (a read-only one included) finds the records. A real tmpfs of a chosen size, real child
 * processes; mounting needs root (CI runs as root), so elsewhere the test is skipped.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { fillUp, tryMount } from "../helpers/small-disk.js";
import { runCli } from "../helpers/spawn-cli.js";
import { stderrText } from "../helpers/stderr-text.js";

const KEY = "full-disk-key-3c9d";

let dir: string;
let mounted = false;
let sim: RunningSimulator;
let canMount = false;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-full-disk-"));
  const probe = join(dir, "probe");
  await mkdir(probe);
  canMount = tryMount(probe, 1 << 20);
  if (canMount) execFileSync("umount", [probe]);
  sim = await startSimulator({ apiKey: KEY, users: 400, takesPerUser: 10, seed: 31 });
});
afterAll(async () => {
  if (mounted) execFileSync("umount", [join(dir, "tiny")]);
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The take count a read-only `sql` command finds in `db` (it must succeed). */
async function takeCount(db: string): Promise<string | undefined> {
  const read = await runCli([
    "sql",
    "SELECT count(*) AS n FROM take",
    "--db",
    db,
    "--format",
    "csv",
  ]);
  expect(read.code, read.stderr).toBe(0);
  return read.stdout.trim().split("\n").at(-1);
}

describe("a full disk at the end of an extract", () => {
  it("fails the run with where space ran out, and the records are there once space is freed", async (context) => {
    if (!canMount) context.skip("mounting a tmpfs needs root");
    const keyFile = join(dir, "key");
    await writeFile(keyFile, KEY, { mode: 0o600 });
    const args = [
      "extract",
      "--base-url",
      sim.baseUrl,
      "--api-key-file",
      keyFile,
      "--log-format",
      "json",
    ];
    // The size of the finished database, measured on a disk with room.
    const roomy = join(dir, "roomy.duckdb");
    expect((await runCli([...args, "--db", roomy])).code).toBe(0);
    const size = (await stat(roomy)).size;

    // Room for the merged records in the write-ahead log, not for writing them into the file
    // too. Where exactly that lies depends on DuckDB's block layout, so sizes around the finished
    // file's are tried; a disk that fills earlier (at the merge) must fail cleanly as well.
    const tiny = join(dir, "tiny");
    await mkdir(tiny);
    const db = join(tiny, "lms.duckdb");
    let failed: Awaited<ReturnType<typeof runCli>> | undefined;
    for (const share of [1.0, 0.9, 1.1, 0.8, 1.2, 0.7, 1.3]) {
      mounted = tryMount(tiny, Math.floor(size * share));
      expect(mounted).toBe(true);
      const run = await runCli([...args, "--db", db]);
      if (run.code !== 0) {
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(`no space left on ${tiny}`);
      }
      if (/the records were stored/.test(run.stderr)) {
        failed = run;
        break;
      }
      execFileSync("umount", [tiny]);
      mounted = false;
    }
    if (!failed) throw new Error("no disk size made the final write fail");
    expect(failed.stderr).toContain("lms.duckdb.wal");

    // What the failed run left may have freed a little (its side file is deleted once the merge
    // has committed): fill what is left, so the disk is still full for the next read.
    await fillUp(join(tiny, "filler"));
    const blocked = await runCli([
      "sql",
      "SELECT count(*) FROM take",
      "--db",
      db,
      "--format",
      "csv",
    ]);
    // With the disk still full, a read either sees every record (DuckDB replays the .wal file in
    // memory) or says what happened and what to do; never a wrong answer or a bare DuckDB error.
    const takes = String(sim.data.list("take").length);
    if (blocked.code === 0) {
      expect(blocked.stdout.trim().split("\n").at(-1)).toBe(takes);
    } else {
      expect(blocked.code).toBe(1);
      expect(blocked.stderr).toMatch(
        /has changes in lms\.duckdb\.wal that could not be written into it \(no space left on /,
      );
    }

    await rm(join(tiny, "filler"));
    execFileSync("mount", ["-o", `remount,size=${size * 4}`, tiny]);
    expect(await takeCount(db)).toBe(takes);
    // Three extracts and three reads in child processes: slow on a busy machine, not stuck.
  }, 240_000);

  it("a disk that fills up while records are staged is named too, and --resume finishes the run", async (context) => {
    if (!canMount) context.skip("mounting a tmpfs needs root");
    const keyFile = join(dir, "key");
    await writeFile(keyFile, KEY, { mode: 0o600 });
    const small = join(dir, "small");
    await mkdir(small);
    const db = join(small, "lms.duckdb");
    const args = ["extract", "--base-url", sim.baseUrl, "--api-key-file", keyFile, "--db", db];
    // Room for the database's empty tables, not for the staged records of 4,000 takes.
    expect(tryMount(small, 1 << 20)).toBe(true);
    try {
      const run = await runCli([...args, "--log-format", "json"]);
      expect(run.code, run.stderr).toBe(1);
      const last = stderrText(run.stderr).trim().split("\n").at(-1) ?? "";
      expect(last).toMatch(
        new RegExp(
          `^lms-export: extract failed: no space left on ${small} \\(.* free\\): free space there; `,
        ),
      );
      expect(last).toContain(
        `\`lms-export extract --db ${db} --base-url ${sim.baseUrl} --api-key-file ${keyFile} --resume\` continues from here`,
      );
      execFileSync("mount", ["-o", "remount,size=64m", small]);
      const resumed = await runCli([...args, "--resume", "--log-format", "json"]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(await takeCount(db)).toBe(String(sim.data.list("take").length));
    } finally {
      execFileSync("umount", [small]);
    }
  }, 240_000);
});
