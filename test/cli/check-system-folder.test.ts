/**
 * A --db in a folder no file can be made in, as check's database line and extract say it: a
 * system folder (/sys, /proc) and a read-only mount get advice that can work (another --db), not
 * "fix its permissions", which stays for a folder whose permission bits are the cause. The real
 * CLI on real folders: the read-only mount is made in a mount namespace of the child's own, the
 * permission bits are tried as an unprivileged user when the tests run as root.
 */
import { spawnSync } from "node:child_process";
import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { runCli as runInProcess } from "../helpers/in-process-cli.js";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-sysdir-");
const env = { LMS_API_KEY: "sysdir-key", LMS_BASE_URL: "http://127.0.0.1:9/api-v2" };

const root = process.getuid?.() === 0;
const works = (command: string[]) =>
  spawnSync(command[0] ?? "", command.slice(1), { stdio: "ignore" }).status === 0;
/** Mounts a folder read-only (a bind mount of itself) for the command after it, in its own namespace. */
const READ_ONLY_MOUNT = [
  "unshare",
  "--mount",
  "--map-root-user",
  "sh",
  "-c",
  'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && shift && exec "$@"',
  "sh",
];
const NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"];

/** check's database line in `output`. */
const databaseLine = (output: string) => output.split("\n").find((l) => /^. database: /.test(l));

describe("a database folder no file can be made in", () => {
  it("in /sys or /proc: a system folder, choose another --db; extract refuses it alike", async () => {
    for (const [folder, type] of [
      ["/sys", "sysfs"],
      ["/proc", "proc"],
      ["/sys/kernel", "sysfs mounted at /sys"],
    ]) {
      const run = await runInProcess(dir, ["check", "--db", `${folder}/lms.duckdb`], env);
      expect(databaseLine(run.stdout)).toBe(
        `✗ database: directory ${folder} is a system folder (${type}), where no file can be made, so database ${folder}/lms.duckdb cannot be there; choose another --db`,
      );
    }
    const extract = await runInProcess(dir, ["extract", "--db", "/sys/x.duckdb"], env);
    expect(extract.code).toBe(2);
    expect(extract.stderr.trimEnd().split("\n")).toEqual([
      "lms-export: directory /sys is a system folder (sysfs), where no file can be made, so database /sys/x.duckdb cannot be there; choose another --db",
    ]);
  });

  it.skipIf(!works([...READ_ONLY_MOUNT, dir, "true"]))(
    "on a read-only mount: says so, and a database there is still read",
    async () => {
      const mounted = join(dir, "mounted");
      await mkdir(mounted);
      const kept = join(mounted, "kept.duckdb");
      const instance = await DuckDBInstance.create(kept);
      instance.closeSync();
      const via = [...READ_ONLY_MOUNT, mounted];

      const fresh = await runCli(["check", "--db", join(mounted, "lms.duckdb")], { env, via });
      // The mount point is the folder itself; its type is whatever the test folder is on.
      expect(databaseLine(fresh.stdout)).toMatch(
        new RegExp(
          `^✗ database: directory ${mounted} is on a read-only file system \\([\\w.-]+\\), where no file can be made, so database ${mounted}/lms\\.duckdb cannot be there; choose another --db$`,
        ),
      );
      const extract = await runCli(["extract", "--db", kept], { env, via });
      expect(extract.code).toBe(2);
      expect(extract.stderr.trimEnd().split("\n")).toEqual([
        `lms-export: database ${kept} is on a read-only file system, where it can be read but not written; copy it to a writable folder and give that as --db`,
      ]);
      const read = await runCli(["sql", "SELECT 42 AS answer", "--db", kept], { env, via });
      expect(read.code, read.stderr).toBe(0);
    },
  );

  it.skipIf(root && !works([...NOBODY, "true"]))(
    "whose permission bits refuse the user: fix its permissions",
    async () => {
      const locked = join(dir, "locked");
      await mkdir(locked);
      await chmod(locked, 0o555);
      // The unprivileged user must reach the folder through the test's own.
      await chmod(dir, 0o755);
      const db = join(locked, "lms.duckdb");
      const run = await runCli(["check", "--db", db], { env, via: root ? NOBODY : [] });
      expect(databaseLine(run.stdout)).toBe(
        `✗ database: directory ${locked} is not writable (DuckDB keeps lms.duckdb.wal beside the database); fix its permissions or choose another --db`,
      );
    },
  );
});
