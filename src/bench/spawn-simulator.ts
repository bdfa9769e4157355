/**
 * Starts the simulated portal in a separate process, so its CPU and memory are not counted
 * against the extractor being measured.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

export interface SimulatorProcess {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

const BIN = fileURLToPath(new URL("../../bin/lms-export.js", import.meta.url));

export async function spawnSimulator(args: readonly string[]): Promise<SimulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, [BIN, "simulate", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      buffered += chunk;
      const newline = buffered.indexOf("\n");
      if (newline >= 0) resolve(buffered.slice(0, newline).trim());
    });
    child.once("exit", (code) =>
      reject(new Error(`simulator exited with code ${code} before printing its address`)),
    );
    child.once("error", reject);
  });
  child.stdout!.resume();
  return {
    baseUrl,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Runs `use` against a simulator started with `args`, stopped whatever happens. */
export async function withSimulator<T>(
  args: readonly string[],
  use: (baseUrl: string) => Promise<T>,
): Promise<T> {
  const sim = await spawnSimulator(args);
  try {
    return await use(sim.baseUrl);
  } finally {
    await sim.stop();
  }
}
