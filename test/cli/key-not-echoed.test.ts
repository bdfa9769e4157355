/** A key pasted where a key-file path belongs never reaches the terminal of a real process. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/spawn-cli.js";

const KEY = "lk_live_9b3e71c0d4f2a8";
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-key-echo-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a key given as the key-file setting", () => {
  it("is refused with exit 2 and printed nowhere (LMS_API_KEY_FILE, then apiKeyFile)", async () => {
    const env = { LMS_API_KEY_FILE: KEY, LMS_BASE_URL: "http://127.0.0.1:9/api-v2" };
    const viaEnv = await runCli(["extract", "--db", join(dir, "a.duckdb")], { cwd: dir, env });
    expect(viaEnv.code).toBe(2);
    expect(viaEnv.stderr).toContain("looks like a key itself");
    expect(`${viaEnv.stdout}${viaEnv.stderr}`).not.toContain(KEY);

    await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ apiKeyFile: KEY }));
    const viaFile = await runCli(["extract", "--db", join(dir, "b.duckdb")], {
      cwd: dir,
      env: { LMS_BASE_URL: "http://127.0.0.1:9/api-v2", LMS_API_KEY_FILE: undefined },
    });
    expect(viaFile.code).toBe(2);
    expect(viaFile.stderr).toContain("(from ");
    expect(`${viaFile.stdout}${viaFile.stderr}`).not.toContain(KEY);
  });
});
