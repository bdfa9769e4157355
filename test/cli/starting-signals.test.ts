/**
 * A signal while the command line is still loading ends it with one line and 129, 130 or 143, as a
 * signal during a command does, instead of Node's silent death by the signal. A real child
 * process and real signals: it says "ready" once it catches them, as the launcher does before
 * it loads the rest of the command line.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

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
