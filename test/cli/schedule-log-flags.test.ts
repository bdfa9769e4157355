/**
 * The schedule's own `--quiet` and `--log-format` hold for its runs too: they write to the same
 * stream, so a JSON log with a run's human lines in it (or a quiet schedule whose runs are not)
 * is of no use to whoever reads it. Real runs of the built CLI, publishing a lake.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { filledDatabase } from "../publish/helpers/filled-db.js";
import { waitFor } from "./schedule-helpers.js";

const dir = tempDirForFile("lms-schedule-log-");

async function database(name: string): Promise<string> {
  const db = await filledDatabase(dir, name);
  db.close();
  return join(dir, `${name}.duckdb`);
}

/** Runs `schedule FLAGS --run-now -- publish --lake` until `done`, then stops it. */
async function scheduleOnce(flags: string[], done: (stderr: string, lake: string) => boolean) {
  const name = `db${flags.join("").replace(/\W/g, "")}`;
  const db = await database(name);
  const lake = join(dir, `${name}-lake`);
  const stderr = new PassThrough();
  let text = "";
  stderr.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  const stop = new AbortController();
  const ctx = {
    stdout: new PassThrough(),
    stderr,
    env: { ...process.env },
    cwd: dir,
    signal: stop.signal,
  };
  const args = ["schedule", "--cron", "0 0 1 1 *", "--run-now", ...flags, "--"];
  const ended = main([...args, "publish", "--lake", lake, "--db", db], ctx);
  await waitFor("the run's end", () => done(text, lake), 60_000);
  stop.abort();
  expect(await ended).toBe(0);
  return text.split("\n").filter((line) => line !== "");
}

describe("schedule's log flags reach its runs", () => {
  it("--log-format human: the run's own lines are human too, not JSON", async () => {
    const lines = await scheduleOnce(["--log-format", "human"], (text) =>
      text.includes("run succeeded"),
    );
    const published = lines.filter((line) => line.includes("partition published"));
    expect(published.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.startsWith("{"))).toEqual([]);
  });

  it("--quiet: the run writes no information lines", async () => {
    const lines = await scheduleOnce(["--quiet"], (_text, lake) =>
      existsSync(join(lake, "_lake.json")),
    );
    expect(lines.filter((line) => line.includes("partition published"))).toEqual([]);
  });
});
