/** main() run in the test's own process with a test context: what it printed and its exit code. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { CliContext } from "../../src/cli/context.js";
import { main } from "../../src/cli/main.js";
import { textSink } from "./text-sink.js";

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `args` with `cwd` as working directory and `env` as the whole environment (with the tests'
 * state folder unless `env` names one); `signal`, when given, stops the command as Ctrl-C does.
 */
export async function runInProcess(
  args: readonly string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
  signal: AbortSignal = new AbortController().signal,
): Promise<InProcessRun> {
  const stdout = textSink();
  const stderr = textSink();
  const ctx: CliContext = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    // What a command keeps between runs goes where vitest.config.ts puts it, never into the home
    // folder of whoever runs the tests, unless the test names its own place.
    env: { XDG_STATE_HOME: process.env.XDG_STATE_HOME, ...env },
    cwd,
    signal,
  };
  const code = await main([...args], ctx);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** Runs `args` in `cwd` with `env` (JSON logs, warnings only, unless `env` says otherwise). */
export function runCli(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<InProcessRun> {
  return runInProcess(args, cwd, { LMS_LOG_FORMAT: "json", LMS_QUIET: "1", ...env });
}

/**
 * The lines of the one CSV file `report QUERY --format csv ARGS` wrote in `cwd`, after checking
 * that it succeeded.
 */
export async function reportCsvLines(
  cwd: string,
  query: string,
  args: string[],
): Promise<string[]> {
  const result = await runCli(cwd, ["report", query, "--format", "csv", ...args]);
  expect(result.code, result.stderr).toBe(0);
  const path = result.stdout
    .split("\n")
    .find((l) => l.trim().endsWith(".csv"))
    ?.trim();
  expect(path, result.stdout).toBeDefined();
  return (await readFile(join(cwd, path as string), "utf8")).trimEnd().split(/\r?\n/);
}
