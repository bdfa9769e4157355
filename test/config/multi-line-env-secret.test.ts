/**
 * A key or password in the environment holding more than one line (LMS_API_KEY, PGPASSWORD) is
 * refused as its file would be, naming the variable and never the value, before anything is sent.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { startSimulator } from "../../src/simulator/server.js";
import { closedPort } from "../helpers/closed-port.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const KEY = "multi-line-key-81zq";
let sim: Awaited<ReturnType<typeof startSimulator>>;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 5, takesPerUser: 1, seed: 3 });
});
afterAll(() => sim?.close());

test("LMS_API_KEY with a second line is refused, exit 2, and the portal is not asked", async () => {
  const cwd = await tempDir();
  const run = await runCli(cwd, ["extract", "--base-url", sim.baseUrl], {
    LMS_API_KEY: `${KEY}\nnote: the acme portal`,
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(
    "LMS_API_KEY holds more than one line: it must contain only the API key; set it to that line alone, or put the API key alone in a file and set LMS_API_KEY_FILE to its path",
  );
  expect(run.stderr).not.toContain(KEY);
  expect(run.stderr).not.toContain("acme");
});

test("PGPASSWORD with a second line is refused, exit 2, before connecting", async () => {
  const cwd = await tempDir();
  const port = await closedPort();
  const url = `postgres://writer@127.0.0.1:${port}/analytics`;
  const run = await runCli(cwd, ["publish", "--postgres", url, "--db", "none.duckdb"], {
    PGPASSWORD: "Pg-line-one-55zz\r\nuser: writer",
  });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("PGPASSWORD holds more than one line");
  expect(run.stderr).not.toContain("Pg-line-one-55zz");
  expect(run.stderr).not.toContain("ECONNREFUSED");
});
