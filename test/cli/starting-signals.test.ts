/**
 * A signal while the command line is still loading ends it with one line and 129, 130 or 143, as a
 * signal during a command does, instead of Node's silent death by the signal. A real child
 * process and real signals: it says "ready" once it catches them, as the launcher does before
 * it loads the rest of the command line. A signal still on its way when loading ends (sent by
 * the child to itself as its loading finishes, so not yet handled) stops the command that
 * main() then starts: it is never lost between the launcher's handlers and main()'s.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { collect } from "../helpers/child-output.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** A child that catches signals as the launcher does (and lets go of them when `release`). */
async function signalledChild(signal: NodeJS.Signals, release: boolean) {
  const module = JSON.stringify(here("../../src/cli/starting-signals.ts"));
  const script = `
    const { catchSignalsWhileStarting } = await import(${module});
    const releaseSignals = catchSignalsWhileStarting();
    ${release ? "releaseSignals();" : ""}
    process.stdout.write("ready\\n");
    setInterval(() => {}, 1000);
  `;
  const child = spawn(
    process.execPath,
    ["--import", here("../helpers/register-ts.mjs"), "--input-type=module", "-e", script],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.on("data", (chunk: Buffer) => {
    if (chunk.toString().includes("ready")) child.kill(signal);
  });
  const [code, killedBy] = await new Promise<[number | null, string | null]>((resolve) =>
    child.once("close", (exitCode, signalName) => resolve([exitCode, signalName])),
  );
  return { code, killedBy, stderr };
}

describe("a signal while the command line loads", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)("%s ends it with one line and %i", async (signal, code) => {
    const run = await signalledChild(signal, false);
    expect(run).toEqual({
      code,
      killedBy: null,
      stderr: "lms-export: interrupted while starting; nothing was read or written\n",
    });
  });

  it("once let go, the signal is main()'s to handle: nothing of the loader's is left", async () => {
    const run = await signalledChild("SIGTERM", true);
    expect(run).toEqual({ code: null, killedBy: "SIGTERM", stderr: "" });
  });
});

const KEY = "starting-signals-key-5e1a";
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 50, takesPerUser: 5, seed: 7 });
});
afterAll(async () => {
  await sim?.close();
});

/**
 * `args` run by the launcher's own steps (launch.ts), whose loading ends by the child sending
 * itself `signal`: the signal is received but not yet handled when main() takes over.
 */
function launchedWithSignalAtHandOver(signal: NodeJS.Signals, args: readonly string[]) {
  const launch = JSON.stringify(here("../../src/cli/launch.ts"));
  const main = JSON.stringify(here("../../src/cli/main.ts"));
  const script = `
    const { launch } = await import(${launch});
    process.exitCode = await launch(${JSON.stringify(args)}, async () => {
      const loaded = await import(${main});
      process.kill(process.pid, ${JSON.stringify(signal)});
      return loaded;
    });
  `;
  const child = spawn(
    process.execPath,
    ["--import", here("../helpers/register-ts.mjs"), "--input-type=module", "-e", script],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LMS_API_KEY: KEY, NO_COLOR: "1" },
    },
  );
  return collect(child);
}

describe("a signal on its way when loading ends", () => {
  const dir = tempDirForFile("lms-starting-signals-");
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s stops the extract main() starts: %i, not a finished run",
    async (signal, code) => {
      const db = join(dir, `${signal}.duckdb`);
      const run = await launchedWithSignalAtHandOver(signal, [
        "extract",
        "--base-url",
        sim.baseUrl,
        "--db",
        db,
      ]);
      expect({ code: run.code, killedBy: run.signal }, run.stderr).toEqual({
        code,
        killedBy: null,
      });
      // The CLI's last line: text, or a JSON record (the log is JSON off a terminal).
      expect(run.stderr.trimEnd().split("\n").at(-1)).toMatch(
        /(lms-export: |"msg":")extract interrupted/,
      );
      expect(run.stderr).not.toMatch(/finished/);
    },
  );
});
