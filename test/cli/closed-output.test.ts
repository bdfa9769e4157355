/**
 * `lms-export … | head`: a real child process whose stdout and stderr are closed by their reader.
 * It ends quietly (no EPIPE stack trace), and an extract never leaves its run marked `running`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../../src/simulator/server.js";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { readRows } from "../helpers/read-rows.js";
import { collect, spawnCli } from "../helpers/spawn-cli.js";

const KEY = "closed-output-key-3a9d";
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-closed-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a closed output pipe", () => {
  it("ends `sql` quietly with exit 0 once its reader has read the first line", async () => {
    const db = join(dir, "fixture.duckdb");
    (await createLmsDatabase({ path: db })).close();
    const child = spawnCli(["sql", "FROM range(5000000)", "--format", "csv", "--db", db]);
    let first = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      first += chunk.toString();
      if (first.includes("\n")) child.stdout!.destroy();
    });
    const done = await collect(child);
    expect(first.split("\r\n")[0]).toBe("range");
    expect(done.stderr).not.toMatch(/EPIPE|at .*\.ts/);
    expect(done.code).toBe(0);
  });

  it("lets an extract finish with stdout and stderr closed early, never leaving `running`", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 60, takesPerUser: 3, seed: 4 });
    try {
      const keyFile = join(dir, "key");
      await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
      const db = join(dir, "extract.duckdb");
      for (const logFormat of ["human", "json"]) {
        const child = spawnCli([
          "extract",
          ...["--base-url", sim.baseUrl, "--api-key-file", keyFile, "--db", db],
          ...["--log-format", logFormat, "--concurrency", "4", "--page-size", "20"],
        ]);
        child.stdout!.destroy();
        child.stderr!.once("data", () => child.stderr!.destroy());
        const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
        expect(code).toBe(0);
      }
      expect(await readRows(db, "SELECT status FROM _runs ORDER BY run_id")).toEqual([
        ["succeeded"],
        ["succeeded"],
      ]);
    } finally {
      await sim.close();
    }
  });
});
