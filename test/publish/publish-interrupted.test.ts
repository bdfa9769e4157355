/**
 * A publish stopped (Ctrl-C, SIGTERM) before it took effect says so and what became of its target,
 * rather than a bare "interrupted": the lake is as it was, and publishing again is what to do.
 * In-process through main(), over a real database file and a real lake folder.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { StoppedBySignal } from "../../src/errors/stop-signal.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { filledDatabase } from "./helpers/filled-db.js";

it("a publish stopped before it takes effect says the lake is as before, exit 130", async () => {
  const work = await tempDir();
  (await filledDatabase(work, "a")).close();
  const publish = ["publish", "--lake", "lake", "--db", "a.duckdb"];
  const first = await runInProcess([...publish, "--snapshot-date", "2026-01-05"], work, {
    LMS_QUIET: "1",
  });
  expect(first.code, first.stderr).toBe(0);
  const manifest = await readFile(join(work, "lake", "_lake.json"), "utf8");
  const stop = new AbortController();
  stop.abort(new StoppedBySignal("SIGINT"));
  const run = await runInProcess(publish, work, { LMS_QUIET: "1" }, stop.signal);
  expect(run.stderr).toBe(
    "lms-export: publish interrupted before it took effect: the lake lake is as before; run the same publish again\n",
  );
  expect(run.code).toBe(130);
  expect(await readFile(join(work, "lake", "_lake.json"), "utf8")).toBe(manifest);
  expect(await readdir(join(work, "lake", "take", "portal=default"))).toEqual([
    "snapshot_date=2026-01-05",
  ]);
});
