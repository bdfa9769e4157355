import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import yargs from "yargs";
import {
  withConnectionOptions,
  withDbOption,
  withLogOptions,
  withOutputOptions,
  withParamOption,
} from "../../src/cli/options.js";
import { resolveConfig } from "../../src/config/resolve.js";

const cwd = mkdtempSync(join(tmpdir(), "lms-options-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function parser(argv: string[]) {
  const base = yargs(argv)
    .strict()
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new Error(message);
    });
  return withParamOption(
    withLogOptions(withOutputOptions(withDbOption(withConnectionOptions(base)))),
  );
}

describe("shared option groups", () => {
  it("parse into typed values", async () => {
    const argv = await parser([
      "--base-url",
      "https://lms.example.com/api-v2",
      "--api-key-file",
      "k.txt",
      "--auth-scheme",
      "Bearer",
      "--concurrency",
      "8",
      "--rate",
      "2.5",
      "--page-size",
      "250",
      "--allow-http",
      "--db",
      "x.duckdb",
      "--out",
      "reports",
      "--format",
      "csv,xlsx",
      "--format",
      "parquet",
      "--param",
      "days=7",
      "--param",
      "region=eu,us",
      "--log-format",
      "json",
      "--quiet",
      "--config",
      "c.json",
    ]).parseAsync();
    // The assignments prove the inferred types; the expectations prove the values.
    const baseUrl: string | undefined = argv.baseUrl;
    const concurrency: string | undefined = argv.concurrency;
    const allowHttp: boolean | undefined = argv.allowHttp;
    const format: string[] | undefined = argv.format;
    const logFormat: "human" | "json" | undefined = argv.logFormat;
    expect({ baseUrl, concurrency, allowHttp, format, logFormat }).toEqual({
      baseUrl: "https://lms.example.com/api-v2",
      concurrency: "8",
      allowHttp: true,
      format: ["csv,xlsx", "parquet"],
      logFormat: "json",
    });
    expect(argv.param).toEqual(["days=7", "region=eu,us"]);
    expect(argv.db).toBe("x.duckdb");
    expect(argv.config).toBe("c.json");
  });

  it("leave absent flags undefined so the environment and file can fill them", async () => {
    const argv = await parser([]).parseAsync();
    for (const key of [
      "concurrency",
      "rate",
      "pageSize",
      "allowHttp",
      "db",
      "out",
      "format",
      "quiet",
      "logFormat",
    ]) {
      expect(argv[key], key).toBeUndefined();
    }
    const config = await resolveConfig({
      flags: argv,
      env: { LMS_CONCURRENCY: "5", LMS_QUIET: "true" },
      cwd,
    });
    expect(config.concurrency).toBe(5);
    expect(config.quiet).toBe(true);
  });

  it("feed resolveConfig: comma lists split, params parsed, flags beat the environment", async () => {
    const argv = await parser([
      "--format",
      "csv,xlsx",
      "--param",
      "region=eu,us",
      "--db",
      "flag.duckdb",
    ]).parseAsync();
    const config = await resolveConfig({ flags: argv, env: { LMS_DB: "env.duckdb" }, cwd });
    expect(config.formats).toEqual(["csv", "xlsx"]);
    expect(config.reportParams).toEqual({ region: "eu,us" });
    expect(config.db).toBe(join(cwd, "flag.duckdb"));
  });

  it("reject a log format outside human|json at parse time", async () => {
    // yargs calls fail() synchronously during validation; the async wrapper catches either way.
    await expect((async () => parser(["--log-format", "xml"]).parseAsync())()).rejects.toThrow(
      /log-format/,
    );
  });

  it("accept --api-key only so that resolveConfig can refuse it with directions", async () => {
    const argv = await parser(["--api-key", "lk_live_x"]).parseAsync();
    await expect(resolveConfig({ flags: argv, env: {}, cwd })).rejects.toMatchObject({
      code: "bad-input",
    });
    await expect(resolveConfig({ flags: argv, env: {}, cwd })).rejects.toThrow(/--api-key-file/);
  });

  it("show every option in --help and hide --api-key", async () => {
    const help = await parser([]).getHelp();
    for (const flag of [
      "--base-url",
      "--api-key-file",
      "--auth-scheme",
      "--concurrency",
      "--rate",
      "--page-size",
      "--allow-http",
      "--db",
      "--out",
      "--format",
      "--param",
      "--log-format",
      "--quiet",
      "--config",
    ]) {
      expect(help).toContain(flag);
    }
    expect(help).not.toMatch(/--api-key\s/);
  });
});
