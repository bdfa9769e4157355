/**
 * --wait: a database held read-write by another process (as an extract holds it) is waited for,
 * with one line saying whom it waits for, instead of failing at once: sql, and roster import,
 * apply and publish, which scripts run beside a scheduled extract.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { collect, runCli, spawnCli } from "../helpers/spawn-cli.js";
import { holdDatabaseLock, kill } from "../load/helpers/child-process.js";

let dir: string;
let db: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-wait-"));
  db = join(dir, "lms.duckdb");
  (await createLmsDatabase({ path: db })).close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const holdLock = () => holdDatabaseLock(db);

describe("--wait for a database another process holds", () => {
  it("fails at once without --wait, and after the time given with --wait 1", async () => {
    const holder = await holdLock();
    try {
      const now = await runCli(["sql", "SELECT 1", "--db", db]);
      expect(now.code).toBe(1);
      expect(now.stderr).toContain(`is in use by another process (PID ${holder.pid})`);
      const brief = await runCli(["sql", "SELECT 1", "--db", db, "--wait", "1"]);
      expect(brief.code).toBe(1);
      expect(brief.stderr).toContain("(waited 1 s); run the command again once it has finished");
      expect(brief.stderr).not.toContain("(--wait)");
      expect(brief.stderr).toContain(`in use by process ${holder.pid}: waiting for it`);
    } finally {
      await kill(holder);
    }
  });

  it("runs once the holder lets go", async () => {
    const holder = await holdLock();
    const child = spawnCli([
      ...["sql", "SELECT count(*) AS n FROM grp", "--db", db, "--format", "csv"],
      ...["--wait", "120"],
    ]);
    const done = collect(child);
    let stderr = "";
    await new Promise<void>((resolve) => {
      child.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("waiting for it")) resolve();
      });
    });
    await kill(holder);
    const result = await done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("n\r\n7\r\n");
    expect(result.stderr.match(/waiting for it/g)).toHaveLength(1);
  });

  // Each writes the database (or reads all of it) and is run from scripts beside a scheduled
  // extract, whose start and merge hold the file for a moment.
  describe.each([
    ["roster import", (d: string) => ["roster", "import", join(d, "people.csv")]],
    ["apply", (d: string) => ["apply", join(d, "groups.csv"), "--op", "grp.edit", "--dry-run"]],
    ["publish", (d: string) => ["publish", "--lake", join(d, "lake")]],
  ])("%s", (_name, argsIn) => {
    beforeAll(async () => {
      await writeFile(join(dir, "people.csv"), "user_id\n1\n");
      await writeFile(join(dir, "groups.csv"), "grp_id,grp_description\n1,x\n");
    });

    it("without --wait fails at once, naming --wait", async () => {
      const holder = await holdLock();
      try {
        const run = await runCli([...argsIn(dir), "--db", db]);
        expect(run.code, run.stderr).toBe(1);
        expect(run.stderr).toContain(`is in use by another process (PID ${holder.pid})`);
        expect(run.stderr).toContain("(--wait)");
      } finally {
        await kill(holder);
      }
    });

    it("with --wait runs once the holder lets go", async () => {
      const holder = await holdLock();
      const child = spawnCli([...argsIn(dir), "--db", db, "--wait", "120"]);
      const done = collect(child);
      await saidWaiting(child);
      await kill(holder);
      const result = await done;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr.match(/waiting for it/g)).toHaveLength(1);
    });
  });
});

/** Resolves once `child` has logged that it waits for the database. */
function saidWaiting(child: ReturnType<typeof spawnCli>): Promise<void> {
  let stderr = "";
  return new Promise<void>((resolve) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes("waiting for it")) resolve();
    });
  });
}
