import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LmsExportError } from "../../src/errors/lms-export-error.js";
import {
  checkCron,
  runSchedule,
  type ScheduleOptions,
  type StartRun,
  type StartTicker,
} from "../../src/schedule/scheduler.js";
import { displayCommand, spawnCliRun } from "../../src/schedule/spawn-run.js";
import { CollectingLogger, tempFolder, waitFor } from "./schedule-helpers.js";

let tmp: ReturnType<typeof tempFolder>;
beforeEach(() => {
  tmp = tempFolder();
});
afterEach(() => {
  tmp.remove();
});

const quietStreams = () => ({
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  env: process.env,
});

/** A child that records its arguments (the lms-export args) in `marker`, one run per line. */
function recordingRun(marker: string): StartRun {
  const script =
    "require('node:fs').appendFileSync(process.argv[1], process.argv.slice(2).join(' ') + '\\n')";
  return (args) =>
    spawnCliRun(args, quietStreams(), {
      file: process.execPath,
      args: ["-e", script, marker, ...args],
    });
}

/** A child running `script` (CommonJS, gets `marker` as process.argv[1]). */
function scriptRun(script: string, marker: string): StartRun {
  return (args) =>
    spawnCliRun(args, quietStreams(), { file: process.execPath, args: ["-e", script, marker] });
}

/** A ticker the test drives by hand. */
function manualTicker(): { start: StartTicker; tick(): void; stopped(): boolean } {
  let onTick: (() => void) | undefined;
  let stopped = false;
  return {
    start: (callback) => {
      onTick = callback;
      return {
        nextRun: () => (stopped ? null : new Date("2030-01-01T06:00:00Z")),
        stop: () => {
          stopped = true;
        },
      };
    },
    tick: () => onTick?.(),
    stopped: () => stopped,
  };
}

/** runSchedule on "0 6 * * 1" with a hand-driven ticker and a collecting logger. */
function scheduleByHand(
  options: Omit<ScheduleOptions, "cron" | "logger" | "signal" | "startTicker">,
) {
  const ticker = manualTicker();
  const logger = new CollectingLogger();
  const controller = new AbortController();
  const done = runSchedule({
    cron: "0 6 * * 1",
    logger,
    signal: controller.signal,
    startTicker: ticker.start,
    ...options,
  });
  return { ticker, logger, controller, done };
}

describe("runSchedule", () => {
  it("runs the command at each tick of a real cron expression, one log line per outcome", async () => {
    const marker = tmp.path("runs.txt");
    const logger = new CollectingLogger();
    const controller = new AbortController();
    const done = runSchedule({
      cron: "* * * * * *",
      args: ["run", "weekly-compliance"],
      logger,
      signal: controller.signal,
      startRun: recordingRun(marker),
    });
    await waitFor("two finished runs", () => logger.named("run succeeded").length >= 2);
    controller.abort();
    const summary = await done;

    expect(summary.runs).toBeGreaterThanOrEqual(2);
    expect(summary.failed).toBe(0);
    const recorded = readFileSync(marker, "utf8")
      .split("\n")
      .filter((l) => l !== "");
    expect(recorded.length).toBe(summary.runs);
    expect(new Set(recorded)).toEqual(new Set(["run weekly-compliance"]));

    const started = logger.named("schedule started")[0];
    expect(started?.fields).toMatchObject({
      cron: "* * * * * *",
      command: "lms-export run weekly-compliance",
    });
    expect(Date.parse(String(started?.fields.nextRun))).toBeGreaterThan(0);
    for (const line of logger.named("run succeeded")) {
      expect(line.fields).toMatchObject({ exitCode: 0 });
      expect(typeof line.fields.durationMs).toBe("number");
    }
    expect(logger.lines.at(-1)?.message).toBe("schedule stopped");
  });

  it("skips a tick while the previous run is still going, and logs failures with their exit code", async () => {
    const release = tmp.path("release");
    // Waits until the release file exists, then exits 3.
    const script =
      "const fs=require('node:fs');const t=setInterval(()=>{if(fs.existsSync(process.argv[1])){clearInterval(t);process.exit(3)}},10)";
    const { ticker, logger, controller, done } = scheduleByHand({
      args: ["extract"],
      startRun: scriptRun(script, release),
    });

    ticker.tick();
    ticker.tick();
    expect(logger.named("run started")).toHaveLength(1);
    expect(logger.named("run skipped: the previous run is still going")).toHaveLength(1);
    expect(logger.named("run skipped: the previous run is still going")[0]).toMatchObject({
      level: "warn",
      fields: { running: 1 },
    });

    writeFileSync(release, "");
    await waitFor("the first run to end", () => logger.named("run failed").length === 1);
    ticker.tick();
    await waitFor("the second run to end", () => logger.named("run failed").length === 2);
    controller.abort();

    expect(await done).toEqual({ runs: 2, failed: 2, stopped: 0, skipped: 1 });
    expect(logger.named("run failed")[0]).toMatchObject({
      level: "error",
      fields: { run: 1, exitCode: 3 },
    });
  });

  it("stops cleanly while a run is going: no new run, SIGTERM forwarded, waits, then resolves", async () => {
    const marker = tmp.path("child.txt");
    const script = [
      "const fs=require('node:fs');const m=process.argv[1];",
      "process.on('SIGTERM',()=>{setTimeout(()=>{fs.appendFileSync(m,' finished-after-term');process.exit(0)},200)});",
      // Written then renamed, so the test never sees the marker before the handler is in place.
      "fs.writeFileSync(m+'.tmp','started');fs.renameSync(m+'.tmp',m);",
      "setInterval(()=>{},1000);",
    ].join("");
    const { ticker, logger, controller, done } = scheduleByHand({
      args: ["run", "weekly-compliance"],
      startRun: scriptRun(script, marker),
    });
    ticker.tick();
    await waitFor("the child to start", () => existsSync(marker));

    controller.abort();
    const summary = await done;

    // The run was waited for: it had finished its SIGTERM handler before runSchedule resolved.
    expect(readFileSync(marker, "utf8")).toBe("started finished-after-term");
    // Exit 0 on the SIGTERM it was sent: stopped by the schedule, not a run that succeeded.
    expect(summary).toEqual({ runs: 1, failed: 0, stopped: 1, skipped: 0 });
    expect(ticker.stopped()).toBe(true);
    const messages = logger.lines.map((l) => l.message);
    expect(messages.slice(-3)).toEqual([
      "stopping: asking the running run to end and waiting for it",
      "run stopped: the schedule is stopping",
      "schedule stopped",
    ]);
    expect(logger.named("run stopped: the schedule is stopping")[0]?.fields).toMatchObject({
      exitCode: 0,
    });
    ticker.tick();
    expect(logger.named("run started")).toHaveLength(1);
  });

  it("kills a run that ignores SIGTERM after the grace period", async () => {
    const marker = tmp.path("stubborn.txt");
    const script =
      "const fs=require('node:fs');const m=process.argv[1];process.on('SIGTERM',()=>{});fs.writeFileSync(m+'.tmp','started');fs.renameSync(m+'.tmp',m);setInterval(()=>{},1000)";
    const { ticker, logger, controller, done } = scheduleByHand({
      args: ["extract"],
      startRun: scriptRun(script, marker),
      stopGraceMs: 300,
    });
    ticker.tick();
    await waitFor("the child to start", () => existsSync(marker));
    controller.abort();
    expect(await done).toEqual({ runs: 1, failed: 0, stopped: 1, skipped: 0 });
    expect(logger.named("the running run did not end after SIGTERM: killing it")).toHaveLength(1);
    const stopped = logger.named("run stopped: the schedule is stopping");
    expect(stopped[0]).toMatchObject({ level: "warn" });
    expect(stopped[0]?.fields).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(logger.named("run failed")).toHaveLength(0);
  });

  it("a run that ends on the stop it was asked for is stopped, not failed, whatever its exit code", async () => {
    for (const [exit, expected] of [
      [143, { failed: 0, stopped: 1, message: "run stopped: the schedule is stopping" }],
      [1, { failed: 0, stopped: 1, message: "run stopped: the schedule is stopping" }],
      [0, { failed: 0, stopped: 1, message: "run stopped: the schedule is stopping" }],
    ] as const) {
      const marker = tmp.path(`exits-${exit}.txt`);
      const script = `const fs=require('node:fs');const m=process.argv[1];process.on('SIGTERM',()=>process.exit(${exit}));fs.writeFileSync(m+'.tmp','started');fs.renameSync(m+'.tmp',m);setInterval(()=>{},1000)`;
      const { ticker, logger, controller, done } = scheduleByHand({
        args: ["extract"],
        startRun: scriptRun(script, marker),
      });
      ticker.tick();
      await waitFor("the child to start", () => existsSync(marker));
      controller.abort();
      const { message, ...counts } = expected;
      expect(await done).toEqual({ runs: 1, skipped: 0, ...counts });
      const line = logger.named(message)[0];
      expect(line).toMatchObject({ level: "warn" });
      expect(line?.fields).toMatchObject({ exitCode: exit });
    }
  });

  it("runs once at start with runNow", async () => {
    const marker = tmp.path("now.txt");
    const { logger, controller, done } = scheduleByHand({
      runNow: true,
      args: ["list"],
      startRun: recordingRun(marker),
    });
    await waitFor("the run", () => logger.named("run succeeded").length === 1);
    controller.abort();
    expect(await done).toEqual({ runs: 1, failed: 0, stopped: 0, skipped: 0 });
    expect(readFileSync(marker, "utf8")).toBe("list\n");
  });

  it("reports a command that cannot start as a failed run", async () => {
    const { ticker, logger, controller, done } = scheduleByHand({
      args: ["list"],
      startRun: (args) =>
        spawnCliRun(args, quietStreams(), { file: tmp.path("no-such-program"), args: [] }),
    });
    ticker.tick();
    await waitFor("the failure", () => logger.named("run failed").length === 1);
    controller.abort();
    expect((await done).failed).toBe(1);
    expect(String(logger.named("run failed")[0]?.fields.error)).toContain("ENOENT");
  });

  it("passes the child's output on to the given streams", async () => {
    const stdout = new PassThrough();
    let seen = "";
    stdout.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
    });
    const run = spawnCliRun(
      ["x"],
      { stdout, stderr: new PassThrough(), env: process.env },
      {
        file: process.execPath,
        args: ["-e", "console.log('hello from the run')"],
      },
    );
    expect(await run.exited).toEqual({ exitCode: 0, signal: null });
    expect(seen).toBe("hello from the run\n");
  });
});

describe("checkCron", () => {
  it("answers the next run of a valid expression", () => {
    const next = checkCron("0 6 * * 1", "UTC");
    expect(next.getUTCDay()).toBe(1);
    expect(next.getUTCHours()).toBe(6);
    expect(next.getUTCMinutes()).toBe(0);
    expect(next.getTime()).toBeGreaterThan(Date.now());
  });

  it("accepts 6 fields, seconds first", () => {
    expect(checkCron("30 0 6 * * 1", "UTC").getUTCSeconds()).toBe(30);
  });

  it.each([
    ["0 0 6 * * 1 2030", 7],
    ["0 0 6 * * 1 *", 7],
    ["6 * * 1", 4],
    ["@daily", 1],
    ["  ", 0],
  ])("refuses %j: it has %i fields, not 5 or 6", (cron, fields) => {
    expect(() => checkCron(cron)).toThrow(
      `invalid --cron expression "${cron}": it has ${fields} field${fields === 1 ? "" : "s"}; use 5 fields "minute hour day month weekday" (or 6 with seconds first), e.g. "0 6 * * 1" for Mondays at 06:00`,
    );
  });

  it.each([
    ["not a cron", "it has 3 fields"],
    ["61 * * * *", "Invalid value for minute"],
  ])("refuses %s with a one-line usage error", (cron, detail) => {
    let error: unknown;
    try {
      checkCron(cron);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: "bad-input" });
    const message = (error as LmsExportError).message;
    expect(message).toContain(`invalid --cron expression "${cron}"`);
    expect(message).toContain(detail);
    expect(message).toContain('"0 6 * * 1"');
    expect(message).not.toContain("\n");
  });

  it("refuses an unknown time zone and an expression that never matches", () => {
    expect(() => checkCron("0 6 * * 1", "Mars/Base")).toThrow(/unknown time zone "Mars\/Base"/);
    expect(() => checkCron("0 0 30 2 *")).toThrow(/never matches/);
  });
});

describe("displayCommand", () => {
  it("hides a value given to --api-key", () => {
    expect(displayCommand(["extract", "--api-key", "k1", "--db", "x"])).toBe(
      "lms-export extract --api-key [redacted] --db x",
    );
    expect(displayCommand(["extract", "--api-key=k2"])).toBe(
      "lms-export extract --api-key=[redacted]",
    );
  });

  it("hides a value given to --smtp-password", () => {
    expect(displayCommand(["run", "x", "--smtp-password", "p1", "--mail"])).toBe(
      "lms-export run x --smtp-password [redacted] --mail",
    );
    expect(displayCommand(["report", "x", "--smtp-password=p2"])).toBe(
      "lms-export report x --smtp-password=[redacted]",
    );
  });

  it("quotes each word so that a POSIX shell reads the command back as it was given", () => {
    const args = ["sql", "select count(*) as n from t where x = 'it''s'", "--db", "../a b.duckdb"];
    const shown = displayCommand(args);
    expect(shown).toMatch(
      /^lms-export sql 'select count\(\*\) as n from t where x = '.* --db '\.\.\/a b\.duckdb'$/,
    );
    const words = execFileSync("sh", ["-c", `set -- ${shown}; printf '%s\\0' "$@"`], {
      encoding: "utf8",
    });
    expect(words.split("\0").slice(0, -1)).toEqual(["lms-export", ...args]);
  });
});
