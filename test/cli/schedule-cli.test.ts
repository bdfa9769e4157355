import { spawn } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { PassThrough } from "node:stream";
import { DuckDBInstance } from "@duckdb/node-api";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliContext } from "../../src/cli/context.js";
import { main } from "../../src/cli/main.js";
import { tempFolder, waitFor, watchChild } from "./schedule-helpers.js";

const ROOT = join(import.meta.dirname, "..", "..");

function context(signal: AbortSignal): { ctx: CliContext; stderr: () => string } {
  const stderr = new PassThrough();
  let text = "";
  stderr.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  return {
    ctx: { stdout: new PassThrough(), stderr, env: {}, cwd: ROOT, signal },
    stderr: () => text,
  };
}

describe("lms-export schedule: usage errors exit 2 with one line", () => {
  it.each([
    [["schedule", "--cron", "not a cron", "--", "list"], 'invalid --cron expression "not a cron"'],
    [
      ["schedule", "--cron", "0 0 6 * * 1 2030", "--", "list"],
      'invalid --cron expression "0 0 6 * * 1 2030": it has 7 fields; use 5 fields',
    ],
    [["schedule", "--cron", "0 6 * * 1"], "name the command to run after --"],
    [["schedule", "--cron", "0 6 * * 1", "--"], "name the command to run after --"],
    [
      ["schedule", "--cron", "0 6 * * 1", "--", "schedule", "--cron", "x"],
      "schedule cannot run schedule",
    ],
    [
      ["schedule", "--cron", "0 6 * * 1", "--", "apply", "changes.xlsx", "--yes"],
      "apply cannot be scheduled: it changes the portal",
    ],
    [
      ["schedule", "--cron", "0 6 * * 1", "--timezone", "Mars/Base", "--", "list"],
      "unknown time zone",
    ],
    [["schedule", "--", "list"], "cron"],
  ])("%j", async (argv, expected) => {
    const { ctx, stderr } = context(new AbortController().signal);
    expect(await main(argv, ctx)).toBe(2);
    const lines = stderr()
      .split("\n")
      .filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(expected);
  });
});

/**
 * A runnable copy of the CLI in a temp folder: every src/*.ts transpiled on its own (no type
 * check, so it is quick and independent of dist/), the real bin/ launcher, and node_modules linked.
 */
function buildCli(into: string): string {
  const src = join(ROOT, "src");
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : path.endsWith(".ts") ? [path] : [];
    });
  for (const file of walk(src)) {
    const out = join(into, "dist", relative(src, file)).replace(/\.ts$/, ".js");
    mkdirSync(dirname(out), { recursive: true });
    const { outputText } = ts.transpileModule(readFileSync(file, "utf8"), {
      compilerOptions: {
        // ES modules as the package's "type": "module" makes them; NodeNext would need the
        // package.json lookup that transpileModule does not do.
        module: ts.ModuleKind.ES2022,
        target: ts.ScriptTarget.ES2023,
        verbatimModuleSyntax: true,
      },
      fileName: file,
    });
    writeFileSync(out, outputText);
  }
  mkdirSync(join(into, "bin"));
  copyFileSync(join(ROOT, "bin", "lms-export.js"), join(into, "bin", "lms-export.js"));
  writeFileSync(
    join(into, "package.json"),
    JSON.stringify({ name: "lms-export", version: "0.0.0", type: "module" }),
  );
  symlinkSync(join(ROOT, "node_modules"), join(into, "node_modules"));
  return join(into, "bin", "lms-export.js");
}

describe("lms-export schedule as a user runs it", () => {
  const tmp = tempFolder();
  let bin: string;
  beforeAll(() => {
    bin = buildCli(tmp.dir);
  });
  afterAll(() => tmp.remove());

  it("runs the CLI itself at each tick and stops with exit 0 on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [
        bin,
        "schedule",
        "--cron",
        "* * * * * *",
        "--run-now",
        "--log-format",
        "json",
        "--",
        "--version",
      ],
      { cwd: tmp.dir, env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    const { seen, exited, events } = watchChild(child);

    await waitFor(
      "two successful runs",
      () => seen.closed || events().filter((e) => e.msg === "run succeeded").length >= 2,
    );
    expect(seen.closed, seen.stderr).toBe(false);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);

    const all = events();
    expect(all[0]).toMatchObject({ msg: "schedule started", command: "lms-export --version" });
    expect(all.filter((e) => e.msg === "run succeeded").every((e) => e.exitCode === 0)).toBe(true);
    expect(all.at(-1)?.msg).toBe("schedule stopped");
    // Each run was this same CLI answering --version.
    const versions = seen.stdout.split("\n").filter((l) => /^\d+\.\d+\.\d+/.test(l));
    // A run going when the SIGTERM came is logged stopped, whether or not it had printed.
    const succeeded = all.filter((e) => e.msg === "run succeeded").length;
    const stopped = all.filter((e) => e.msg === "run stopped: the schedule is stopping").length;
    expect(versions.length).toBeGreaterThanOrEqual(succeeded);
    expect(versions.length).toBeLessThanOrEqual(succeeded + stopped);
  });

  /** A folder with a database holding `take` and a config file naming it. */
  async function folderWithDatabase(): Promise<string> {
    const dir = mkdtempSync(join(tmp.dir, "config-"));
    const instance = await DuckDBInstance.create(join(dir, "s.duckdb"));
    const connection = await instance.connect();
    await connection.run("CREATE TABLE take (take_id BIGINT)");
    connection.closeSync();
    instance.closeSync();
    writeFileSync(join(dir, "lms-export.config.json"), '{"db": "s.duckdb"}');
    return dir;
  }

  it.each([
    ["not JSON", '{"db": "s.duckdb",', "is not valid JSON", true],
    ["an unknown field", '{"db": "s.duckdb", "colour": 1}', 'unknown field "colour"', true],
    [
      "a db that does not exist",
      '{"db": "missing.duckdb"}',
      "missing.duckdb does not exist",
      false,
    ],
  ])(
    "a config file broken while it runs (%s): a failed run is not blamed on the command",
    async (_case, broken, said, blamesFile) => {
      const dir = await folderWithDatabase();
      const child = spawn(
        process.execPath,
        [
          bin,
          "schedule",
          "--cron",
          "*/2 * * * * *",
          "--log-format",
          "json",
          "--",
          "sql",
          "SELECT count(*) FROM take",
        ],
        { cwd: dir, env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "ignore", "pipe"] },
      );
      const { seen, exited, events } = watchChild(child);
      // Broken once the schedule has checked the file (it refuses to start with a broken one),
      // and whole at once: a run reading it half written would fail for another reason.
      await waitFor(
        "the schedule to start",
        () => seen.closed || events().some((e) => e.msg === "schedule started"),
      );
      writeFileSync(join(dir, "next.json"), broken);
      renameSync(join(dir, "next.json"), join(dir, "lms-export.config.json"));
      await waitFor(
        "a failed run",
        () => seen.closed || events().some((e) => e.msg === "run failed"),
      );
      expect(seen.closed, seen.stderr).toBe(false);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);

      const failed = events().find((e) => e.msg === "run failed");
      expect(failed?.exitCode).toBe(2);
      // The run's own error line says what is wrong.
      expect(seen.stderr).toContain(said);
      const path = join(dir, "lms-export.config.json");
      expect(failed?.hint).toBe(
        blamesFile
          ? `fix the config file ${path}, which every run reads (the run's error line says what is wrong)`
          : undefined,
      );
    },
  );
});
