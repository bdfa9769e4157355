/**
 * HTML reports of a database filled from the simulated portal: the simulator runs in this
 * process on 127.0.0.1 (a free port), `extract` and `report` run through main() as a user runs them.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { CliContext } from "../../../src/cli/context.js";
import { main } from "../../../src/cli/main.js";
import { startSimulator } from "../../../src/simulator/server.js";

const KEY = "html-test-key-3f9a";

function sink(into: string[]): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      into.push(String(chunk));
      done();
    },
  });
}

/** Extracts a simulated portal of `users` users into `dir`, then writes `reports` as HTML. */
export async function simulatedHtmlReports(
  reports: readonly string[],
  users = 600,
): Promise<{ dir: string; outDir: string }> {
  const dir = await mkdtemp(join(tmpdir(), "lms-html-sim-"));
  const sim = await startSimulator({ apiKey: KEY, users, takesPerUser: 6, seed: 7 });
  const stderr: string[] = [];
  const ctx: CliContext = {
    stdout: sink([]),
    stderr: sink(stderr),
    env: { LMS_API_KEY: KEY, LMS_BASE_URL: sim.baseUrl, LMS_LOG_FORMAT: "json", LMS_QUIET: "1" },
    cwd: dir,
    signal: new AbortController().signal,
  };
  try {
    const db = ["--db", join(dir, "lms.duckdb")];
    if ((await main(["extract", ...db], ctx)) !== 0) throw new Error(stderr.join(""));
    const args = ["report", ...reports, ...db, "--format", "html", "--out", join(dir, "out")];
    if ((await main(args, ctx)) !== 0) throw new Error(stderr.join(""));
  } finally {
    await sim.close();
  }
  return { dir, outDir: join(dir, "out") };
}
