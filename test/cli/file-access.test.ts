/**
 * User SQL sees only the database: `sql` cannot write files with COPY or read the key file, a
 * report still writes its files, and --allow-file-access opens a folder but never the key's.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/spawn-cli.js";

const KEY = "file-access-key-7d20c1";
let cwd: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-files-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
  await mkdir(join(cwd, "secrets"));
  await writeFile(join(cwd, "secrets", "key"), `${KEY}\n`, { mode: 0o600 });
  await mkdir(join(cwd, "data"));
  await writeFile(join(cwd, "data", "extra.csv"), "a,b\n1,2\n3,4\n");
  env = { LMS_API_KEY_FILE: join(cwd, "secrets", "key"), LMS_API_KEY: undefined };
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("file access of user SQL", () => {
  it("refuses COPY to a file (exit 2, nothing written) and reading the key file", async () => {
    const target = join(cwd, "x.csv");
    const copy = await runCli(["sql", `COPY (SELECT 1) TO '${target}'`], { cwd, env });
    expect(copy.code).toBe(2);
    expect(copy.stderr).toContain("Permission Error");
    expect(copy.stderr).toContain("--allow-file-access");
    expect(existsSync(target)).toBe(false);
    const read = await runCli(
      ["sql", `SELECT * FROM read_text('${join(cwd, "secrets", "key")}')`],
      { cwd, env },
    );
    expect(read.code).toBe(2);
    expect(`${read.stdout}${read.stderr}`).not.toContain(KEY);
  });

  it("reads a folder given with --allow-file-access, never one holding the key file", async () => {
    const csv = join(cwd, "data", "extra.csv");
    const allowed = await runCli(
      ["sql", `SELECT sum(b) AS s FROM read_csv('${csv}')`, "--format", "csv"],
      { cwd, env: { ...env } },
    );
    expect(allowed.code).toBe(2);
    const opened = await runCli(
      [
        "sql",
        `SELECT sum(b) AS s FROM read_csv('${csv}')`,
        "--format",
        "csv",
        "--allow-file-access",
        "data",
      ],
      { cwd, env },
    );
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toBe("s\r\n6\r\n");
    const keyFolder = await runCli(["sql", "SELECT 1", "--allow-file-access", "secrets"], {
      cwd,
      env,
    });
    expect(keyFolder.code).toBe(2);
    expect(keyFolder.stderr).toContain("holds the API key file");
  });

  it("never a folder holding another portal's key file or a password file of the config", async () => {
    const configDir = await mkdtemp(join(cwd, "conf-"));
    await mkdir(join(configDir, "north"));
    await mkdir(join(configDir, "mail"));
    await writeFile(join(configDir, "north", "key"), "north-key-9a1f\n", { mode: 0o600 });
    await writeFile(join(configDir, "mail", "password"), "smtp-pw-41c2\n", { mode: 0o600 });
    const config = {
      mail: { smtpPasswordFile: "mail/password" },
      portals: { north: { baseUrl: "https://north.example.com/api-v2", apiKeyFile: "north/key" } },
    };
    await writeFile(join(configDir, "lms.json"), JSON.stringify(config));
    const db = join(cwd, "lms.duckdb");
    const base = ["--db", db, "--config", join(configDir, "lms.json")];
    for (const [folder, secret] of [
      ["north", "north-key-9a1f"],
      ["mail", "smtp-pw-41c2"],
    ]) {
      const path = join(configDir, folder ?? "", folder === "north" ? "key" : "password");
      const read = await runCli(
        [
          "sql",
          `SELECT content FROM read_text('${path}')`,
          "--allow-file-access",
          join(configDir, folder ?? ""),
          ...base,
        ],
        { cwd, env },
      );
      expect(read.code).toBe(2);
      expect(read.stderr).toContain(`holds the secret file ${path}, which SQL must never read`);
      expect(`${read.stdout}${read.stderr}`).not.toContain(secret);
    }
  });

  it("still lets a report write Parquet, CSV and Excel into its output folder", async () => {
    const run = await runCli(["report", "access", "--out", "out", "--param", "today=2026-03-10"], {
      cwd,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    const files = await readdir(join(cwd, "out"));
    expect(files.map((f) => f.split(".").pop()).sort()).toEqual(["csv", "parquet", "xlsx"]);
  });
});
