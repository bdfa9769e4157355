/**
 * HTML reports of a database filled from the simulated portal: the simulator runs in this
 * process on 127.0.0.1 (a free port), `extract` and `report` run through main() as a user runs them.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimulator } from "../../../src/simulator/server.js";
import { runInProcess } from "../../helpers/in-process-cli.js";

const KEY = "html-test-key-3f9a";

/** Extracts a simulated portal of `users` users into `dir`, then writes `reports` as HTML. */
export async function simulatedHtmlReports(
  reports: readonly string[],
  users = 600,
): Promise<{ dir: string; outDir: string }> {
  const dir = await mkdtemp(join(tmpdir(), "lms-html-sim-"));
  const sim = await startSimulator({ apiKey: KEY, users, takesPerUser: 6, seed: 7 });
  const env = {
    LMS_API_KEY: KEY,
    LMS_BASE_URL: sim.baseUrl,
    LMS_LOG_FORMAT: "json",
    LMS_QUIET: "1",
  };
  const run = async (args: string[]) => {
    const { code, stderr } = await runInProcess(args, dir, env);
    if (code !== 0) throw new Error(stderr);
  };
  try {
    const db = ["--db", join(dir, "lms.duckdb")];
    await run(["extract", ...db]);
    await run(["report", ...reports, ...db, "--format", "html", "--out", join(dir, "out")]);
  } finally {
    await sim.close();
  }
  return { dir, outDir: join(dir, "out") };
}
