/**
 * What `schedule` checks and passes on before its first tick: the scheduled command's flags and
 * values (parsed with the CLI's own definitions), a `publish --postgres` URL holding a password
 * and a password given with --smtp-password refused before any line names the command, `publish`
 * and `roster import` among the commands it may run, the portal, address and key of `run` and
 * `extract`, and its --config handed to every run.
 * In-process through main(); the runs are real child processes of the CLI.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import type { CliContext } from "../../src/cli/context.js";
import { main } from "../../src/cli/main.js";
import { tempFolder, waitFor } from "./schedule-helpers.js";

const tmp = tempFolder();
afterAll(() => tmp.remove());

// North has its address and key; south forgot its key file.
writeFileSync(join(tmp.dir, "north.key"), "north-key\n", { mode: 0o600 });
writeFileSync(
  join(tmp.dir, "portals.json"),
  JSON.stringify({
    portals: {
      north: { baseUrl: "http://127.0.0.1:9/api-v2", apiKeyFile: "north.key" },
      south: { baseUrl: "http://127.0.0.1:9/api-v2" },
    },
  }),
);

function context(controller: AbortController) {
  let out = "";
  let err = "";
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const ctx: CliContext = {
    stdout,
    stderr,
    env: { PATH: process.env.PATH ?? "", LMS_LOG_FORMAT: "json" },
    cwd: tmp.dir,
    signal: controller.signal,
  };
  return { ctx, stdout: () => out, stderr: () => err };
}

const SCHEDULE = ["schedule", "--cron", "0 6 * * 1", "--"];

/**
 * `schedule --cron "0 6 * * 1" -- COMMAND` in-process. Should its start checks let the command
 * through, the schedule would wait for Monday: it is stopped after 10 s.
 */
async function scheduled(command: readonly string[]) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  const run = context(controller);
  const code = await main([...SCHEDULE, ...command], run.ctx);
  clearTimeout(timer);
  return { code, run };
}

describe("schedule checks the scheduled command's arguments at start", () => {
  it.each([
    [["run", "weekly-compliance", "--bogus"], "unknown option --bogus; see lms-export run --help"],
    [["extract", "--wait", "abc"], '--wait must be a number of seconds >= 0, got "abc"'],
    [
      ["sql", "--format", "xml", "SELECT 1"],
      '--format "xml" is not accepted: use table, csv or json',
    ],
    [["report"], "report needs the names of the reports or queries to write"],
    [["run", "access", "--concurrency", "lots"], "option --concurrency must be"],
    [["publish", "--lake", "lake", "--bogus"], "unknown option --bogus"],
    [["publish", "--lake", "lake", "--schema", "bi"], "--schema is for --postgres URL"],
    [["publish", "--portal", "acme"], "name a target: --lake DIR or --postgres URL"],
    [["roster", "import"], "roster import needs the roster file"],
    [["run", "weekly-compliance", "--param", "due_dayz=3"], "unknown parameter due_dayz"],
    [["report", "compliance", "--param", "due_days=abc"], 'bad value "abc" for parameter due_days'],
    [["extract"], "no portal address: pass --base-url URL or set LMS_BASE_URL"],
    [
      ["run", "access", "--base-url", "http://127.0.0.1:9/api-v2", "--api-key-file", "nokey"],
      "the API key file named by --api-key-file does not exist",
    ],
    [["run", "access", "--portal", "acme"], "--portal acme names a portal of the config file"],
    [["report", "access", "--portal", "acme"], "--portal acme names a portal of the config file"],
    [
      ["report", "access", "--portal", "west", "--config", "portals.json"],
      '--portal west is not under "portals" in the config file',
    ],
    [["extract", "--all-portals"], '--all-portals needs "portals" in the config file'],
    [["run", "access", "--all-portals"], "run does not take --all-portals"],
    [
      ["extract", "--all-portals", "--config", "portals.json"],
      'portal "south" has no key file: set "portals.south.apiKeyFile"',
    ],
  ])("%j exits 2 at once with one line", async (command, expected) => {
    const { code, run } = await scheduled(command);
    expect(code, run.stderr()).toBe(2);
    expect(run.stderr()).toMatch(/^lms-export: the command after -- is wrong: .*\n$/);
    expect(run.stderr()).toContain(expected);
  });

  it.each([
    ["postgres://bi:Pw-in-url-7c1d@127.0.0.1:9/bi", "contains a password"],
    ["postgres://bi@127.0.0.1:9/bi?sslpassword=Pw-in-url-7c1d", "in its query string"],
  ])("publish --postgres %s exits 2 at once, the password in no line", async (url, expected) => {
    const { code, run } = await scheduled(["publish", "--postgres", url]);
    expect(code, run.stderr()).toBe(2);
    expect(run.stderr()).toMatch(/^lms-export: the command after -- is wrong: .*\n$/);
    expect(run.stderr()).toContain(expected);
    expect(run.stderr()).not.toContain("Pw-in-url-7c1d");
  });

  it.each([
    [["run", "access", "--mail-to", "ops@example.com", "--smtp-password", "Pw-flag-5e2a"]],
    [["report", "access", "--smtp-password=Pw-flag-5e2a"]],
  ])("%j exits 2 at once, the password in no line", async (command) => {
    const { code, run } = await scheduled(command);
    expect(code, run.stderr()).toBe(2);
    expect(run.stderr()).toMatch(
      /^lms-export: the command after -- is wrong: --smtp-password is not accepted: .*\n$/,
    );
    expect(run.stderr()).not.toContain("Pw-flag-5e2a");
  });

  it.each([
    [["publish", "--lake", "lake", "--portal", "acme"]],
    [["roster", "import", "people.csv", "--merge"]],
    [["extract", "--portal", "north", "--config", "portals.json"]],
    [["report", "access", "--portal", "north", "--config", "portals.json"]],
  ])("%j may be scheduled", async (command) => {
    const controller = new AbortController();
    const run = context(controller);
    const done = main([...SCHEDULE, ...command], run.ctx);
    await waitFor("the schedule to start", () => run.stderr().includes('"schedule started"'));
    controller.abort();
    expect(await done, run.stderr()).toBe(0);
  });

  it.each([["--catalog", "team"], ["--catalog=team"]])(
    "a report of the catalog given as %j is found at start",
    async (...catalog) => {
      mkdirSync(join(tmp.dir, "team", "reports"), { recursive: true });
      writeFileSync(
        join(tmp.dir, "team", "reports", "team-access.json"),
        JSON.stringify({
          title: "Team access",
          description: "Access.",
          queries: ["access"],
          formats: ["csv"],
          fileName: "team-access-{date}",
        }),
      );
      const controller = new AbortController();
      const run = context(controller);
      const done = main([...SCHEDULE, "report", "team-access", ...catalog], run.ctx);
      await waitFor("the schedule to start", () => run.stderr().includes('"schedule started"'));
      controller.abort();
      expect(await done, run.stderr()).toBe(0);
    },
  );
});

describe("schedule --config", () => {
  it("is the config file of every run, by its absolute path", async () => {
    mkdirSync(join(tmp.dir, "conf"));
    const config = join(tmp.dir, "conf", "lms.json");
    writeFileSync(config, JSON.stringify({ baseUrl: "http://127.0.0.1:9/api-v2" }));
    const controller = new AbortController();
    const run = context(controller);
    const done = main(
      ["schedule", "--config", "conf/lms.json", "--cron", "0 6 * * 1", "--run-now", "--", "check"],
      run.ctx,
    );
    await waitFor("the run to end", () => /"run (succeeded|failed)"/.test(run.stderr()), 60_000);
    controller.abort();
    expect(await done).toBe(0);
    // `check` says where its settings came from: the schedule's file, not the folder's none.
    expect(run.stdout()).toContain(
      `configuration: portal http://127.0.0.1:9/api-v2 (settings from ${config})`,
    );
  });
});
