/**
 * The lake folder `publish --lake` is given: one that cannot be made ends in one line naming it,
 * never in a loop. A real child process, so a publish that would never return is killed after
 * the test rather than left spinning in the test's own process.
 */
import type { ChildProcess } from "node:child_process";
import { describe, expect, onTestFinished, test } from "vitest";
import { collect, spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { filledDatabase } from "./helpers/filled-db.js";

/** Kills `child` after the test if it is still running. */
function killAfterTest(child: ChildProcess): ChildProcess {
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return child;
}

describe("a lake folder that cannot be made", () => {
  test("under /proc: one line naming the folder and exit 2, not a loop", async () => {
    const work = await tempDir();
    (await filledDatabase(work, "a")).close();
    const lake = "/proc/lms-export-lake/lake";
    const child = killAfterTest(
      spawnCli(["publish", "--lake", lake, "--db", "a.duckdb"], { cwd: work }),
    );
    const run = await collect(child);
    expect(run.stderr).toBe(
      `lms-export: cannot write the lake folder ${lake} (ENOENT); choose another --lake\n`,
    );
    expect(run.code).toBe(2);
  }, 60_000);
});
