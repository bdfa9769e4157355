import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config/resolve.js";
import { scratchDir } from "../helpers/temp-dir.js";
import { usageErrorOf } from "../helpers/usage-error.js";

let tmp: ReturnType<typeof scratchDir>;
beforeEach(() => {
  tmp = scratchDir("lms-config-");
});
afterEach(() => {
  tmp.remove();
});

const FULL_FILE = {
  baseUrl: "https://file.example.com/api-v2/",
  apiKeyFile: "secrets/lms.key",
  db: "from-file.duckdb",
  concurrency: 4,
  rate: 2,
  pageSize: 100,
  authScheme: "Bearer",
  outDir: "file-out",
  logFormat: "json",
  quiet: true,
  report: { formats: ["csv"], params: { days: 30, region: "eu" } },
};

describe("resolveConfig precedence", () => {
  it("uses the defaults when nothing is set", async () => {
    const config = await resolveConfig({ flags: {}, env: {}, cwd: tmp.dir, isTTY: true });
    expect(config).toMatchObject({
      baseUrl: undefined,
      db: join(tmp.dir, "lms.duckdb"),
      concurrency: "auto",
      maxConcurrency: 64,
      rate: undefined,
      pageSize: 500,
      authScheme: undefined,
      allowHttp: false,
      outDir: join(tmp.dir, "out"),
      formats: undefined,
      reportParams: {},
      logFormat: "human",
      quiet: false,
      apiKeyFile: undefined,
      configFile: undefined,
    });
    expect(config.sources.concurrency).toBe("default");
  });

  it("defaults to JSON lines when the log stream is not a terminal", async () => {
    const config = await resolveConfig({ flags: {}, env: {}, cwd: tmp.dir, isTTY: false });
    expect(config.logFormat).toBe("json");
  });

  it("reads lms-export.config.json from the working directory, paths relative to it", async () => {
    const file = tmp.write("lms-export.config.json", JSON.stringify(FULL_FILE));
    const config = await resolveConfig({ flags: {}, env: {}, cwd: tmp.dir, isTTY: true });
    expect(config).toMatchObject({
      baseUrl: "https://file.example.com/api-v2",
      apiKeyFile: join(tmp.dir, "secrets", "lms.key"),
      db: join(tmp.dir, "from-file.duckdb"),
      concurrency: 4,
      rate: 2,
      pageSize: 100,
      authScheme: "Bearer",
      outDir: join(tmp.dir, "file-out"),
      formats: ["csv"],
      reportParams: { days: "30", region: "eu" },
      logFormat: "json",
      quiet: true,
      configFile: file,
    });
    expect(config.sources.db).toBe(`${file} (db)`);
  });

  it("lets flags beat the environment, the environment beat the file, the file beat defaults", async () => {
    tmp.write("lms-export.config.json", JSON.stringify(FULL_FILE));
    const work = join(tmp.dir, "work");
    mkdirSync(work);
    const config = await resolveConfig({
      flags: { concurrency: 12, "page-size": 250, param: ["days=7"], format: ["xlsx,parquet"] },
      env: {
        LMS_CONCURRENCY: "8",
        LMS_PAGE_SIZE: "300",
        LMS_DB: "env.duckdb",
        LMS_RATE: "5.5",
        LMS_LOG_FORMAT: "human",
        LMS_BASE_URL: "https://env.example.com/api-v2",
      },
      cwd: work,
      configPath: join(tmp.dir, "lms-export.config.json"),
      isTTY: false,
    });
    expect(config.concurrency).toBe(12);
    expect(config.pageSize).toBe(250);
    expect(config.db).toBe(join(work, "env.duckdb"));
    expect(config.rate).toBe(5.5);
    expect(config.logFormat).toBe("human");
    expect(config.baseUrl).toBe("https://env.example.com/api-v2");
    expect(config.formats).toEqual(["xlsx", "parquet"]);
    expect(config.outDir).toBe(join(tmp.dir, "file-out"));
    expect(config.authScheme).toBe("Bearer");
    expect(config.reportParams).toEqual({ days: "7", region: "eu" });
    expect(config.sources).toMatchObject({
      concurrency: "--concurrency",
      pageSize: "--page-size",
      db: "LMS_DB",
      rate: "LMS_RATE",
      outDir: `${join(tmp.dir, "lms-export.config.json")} (outDir)`,
      allowHttp: "default",
    });
  });

  it("reads camelCase flag keys as yargs also gives them", async () => {
    const config = await resolveConfig({
      flags: { pageSize: 42, baseUrl: "https://flag.example.com/x", allowHttp: false },
      env: {},
      cwd: tmp.dir,
    });
    expect(config.pageSize).toBe(42);
    expect(config.baseUrl).toBe("https://flag.example.com/x");
  });

  it("finds the file through --config, then LMS_CONFIG, with paths relative to the file", async () => {
    const elsewhere = join(tmp.dir, "etc");
    mkdirSync(elsewhere);
    tmp.write("etc/a.json", JSON.stringify({ db: "a.duckdb" }));
    tmp.write("etc/b.json", JSON.stringify({ db: "b.duckdb" }));
    tmp.write("lms-export.config.json", JSON.stringify({ db: "implicit.duckdb" }));
    const viaFlag = await resolveConfig({
      flags: { config: "etc/a.json" },
      env: { LMS_CONFIG: "etc/b.json" },
      cwd: tmp.dir,
    });
    expect(viaFlag.db).toBe(join(elsewhere, "a.duckdb"));
    const viaEnv = await resolveConfig({
      flags: {},
      env: { LMS_CONFIG: "etc/b.json" },
      cwd: tmp.dir,
    });
    expect(viaEnv.db).toBe(join(elsewhere, "b.duckdb"));
    const implicit = await resolveConfig({ flags: {}, env: {}, cwd: tmp.dir });
    expect(implicit.db).toBe(join(tmp.dir, "implicit.duckdb"));
  });

  it("treats empty environment variables as unset and rate 0 as no limit", async () => {
    tmp.write("lms-export.config.json", JSON.stringify({ concurrency: 3, rate: 10 }));
    const config = await resolveConfig({
      flags: { rate: 0 },
      env: { LMS_CONCURRENCY: "", LMS_DB: "  " },
      cwd: tmp.dir,
    });
    expect(config.concurrency).toBe(3);
    expect(config.rate).toBeUndefined();
    expect(config.db).toBe(join(tmp.dir, "lms.duckdb"));
  });

  it("reads booleans from the environment and lets a false flag beat them", async () => {
    const on = await resolveConfig({
      flags: {},
      env: { LMS_ALLOW_HTTP: "yes", LMS_QUIET: "1", LMS_BASE_URL: "http://lms.internal/api-v2" },
      cwd: tmp.dir,
    });
    expect(on.allowHttp).toBe(true);
    expect(on.quiet).toBe(true);
    expect(on.baseUrl).toBe("http://lms.internal/api-v2");
    const off = await resolveConfig({
      flags: { "allow-http": false },
      env: { LMS_ALLOW_HTTP: "true" },
      cwd: tmp.dir,
    });
    expect(off.allowHttp).toBe(false);
  });
});

describe("how many portals --all-portals runs at once is a setting like the others", () => {
  it("defaults to 3 and comes from the file, the environment or a flag, in that rising order", async () => {
    expect((await resolveConfig({ flags: {}, env: {}, cwd: tmp.dir })).portalsAtOnce).toBe(3);
    tmp.write("lms-export.config.json", JSON.stringify({ portalsAtOnce: 2 }));
    expect((await resolveConfig({ flags: {}, env: {}, cwd: tmp.dir })).portalsAtOnce).toBe(2);
    const env = { LMS_PORTALS_AT_ONCE: "5" };
    expect((await resolveConfig({ flags: {}, env, cwd: tmp.dir })).portalsAtOnce).toBe(5);
    const flags = { "portals-at-once": 7 };
    expect((await resolveConfig({ flags, env, cwd: tmp.dir })).portalsAtOnce).toBe(7);
    const message = await usageErrorOf(() =>
      resolveConfig({ flags: { "portals-at-once": 0 }, env: {}, cwd: tmp.dir }),
    );
    expect(message).toContain("--portals-at-once");
    expect(message).toContain("a whole number from 1 to 64");
  });
});

describe("the extract's lookback and DuckDB's memory ceiling are settings like the others", () => {
  it("default to an hour and to the database layer's own ceilings", async () => {
    const config = await resolveConfig({ flags: {}, env: {}, cwd: tmp.dir });
    expect(config.lookbackMs).toBe(3_600_000);
    expect(config.duckdbMemoryLimit).toBeUndefined();
  });

  it("come from the file, the environment or a flag, in that rising order", async () => {
    tmp.write(
      "lms-export.config.json",
      JSON.stringify({ lookback: 90, duckdbMemoryLimit: "512MB" }),
    );
    const fromFile = await resolveConfig({ flags: {}, env: {}, cwd: tmp.dir });
    expect(fromFile.lookbackMs).toBe(90 * 60_000);
    expect(fromFile.duckdbMemoryLimit).toBe("512MB");
    expect(fromFile.sources.duckdbMemoryLimit).toContain("(duckdbMemoryLimit)");

    const env = { LMS_LOOKBACK: "0", LMS_DUCKDB_MEMORY_LIMIT: " 2GB " };
    const fromEnv = await resolveConfig({ flags: {}, env, cwd: tmp.dir });
    expect(fromEnv.lookbackMs).toBe(0);
    expect(fromEnv.duckdbMemoryLimit).toBe("2GB");

    const flags = { lookback: 5, "duckdb-memory-limit": "1GiB" };
    const fromFlags = await resolveConfig({ flags, env, cwd: tmp.dir });
    expect(fromFlags.lookbackMs).toBe(5 * 60_000);
    expect(fromFlags.duckdbMemoryLimit).toBe("1GiB");
    expect(fromFlags.sources.lookback).toBe("--lookback");
  });

  it("refuse a wrong value in one line naming where it came from", async () => {
    const resolveWith = (env: Record<string, string>, flags: Record<string, unknown> = {}) =>
      usageErrorOf(() => resolveConfig({ flags, env, cwd: tmp.dir }));
    expect(await resolveWith({ LMS_DUCKDB_MEMORY_LIMIT: "1GB'; DROP TABLE take; --" })).toBe(
      `environment variable LMS_DUCKDB_MEMORY_LIMIT must be a size such as 512MB or 2GB (got "1GB'; DROP TABLE take; --")`,
    );
    expect(await resolveWith({ LMS_LOOKBACK: "an hour" })).toBe(
      'environment variable LMS_LOOKBACK must be a number of minutes from 0 to 5256000, which is ten years (got "an hour")',
    );
    expect(await resolveWith({}, { lookback: -1 })).toBe(
      "option --lookback must be a number of minutes from 0 to 5256000, which is ten years (got -1)",
    );
  });
});

describe("resolveConfig errors name the source, the field and the expected value", () => {
  const fileError = async (content: unknown) => {
    const path = tmp.write(
      "lms-export.config.json",
      typeof content === "string" ? content : JSON.stringify(content),
    );
    const message = await usageErrorOf(() => resolveConfig({ flags: {}, env: {}, cwd: tmp.dir }));
    expect(message).toContain(path);
    return message;
  };

  it("a wrong value in the file", async () => {
    expect(await fileError({ concurrency: "abc" })).toBe(
      `${join(tmp.dir, "lms-export.config.json")}: field "concurrency" must be "auto" or a whole number from 1 to 256 (got "abc")`,
    );
    expect(await fileError({ pageSize: 0 })).toContain(
      'field "pageSize" must be a whole number from 1 to 10000 (got 0)',
    );
    expect(await fileError({ report: { formats: ["pdf"] } })).toContain(
      'field "report.formats" must be one or more of parquet, csv, xlsx',
    );
    // A string where the file needs a list: the list to write instead, not "comma-separated".
    expect(await fileError({ report: { formats: "xlsx" } })).toContain(
      'field "report.formats" must be a list, e.g. ["xlsx"], not a string (got "xlsx"): one or more of parquet',
    );
    expect(await fileError({ report: { formats: "xlsx, html" } })).toContain(
      'must be a list, e.g. ["xlsx","html"], not a string (got "xlsx, html")',
    );
    expect(await fileError({ report: { params: { days: { n: 1 } } } })).toContain(
      'field "report.params" must be parameters as KEY=VALUE',
    );
    expect(await fileError({ logFormat: "xml" })).toContain(
      'field "logFormat" must be "human" or "json" (got "xml")',
    );
    expect(await fileError({ allowHttp: "yes" })).toContain(
      'field "allowHttp" must be true or false',
    );
    expect(await fileError({ authScheme: "Bearer token" })).toContain(
      'field "authScheme" must be a single word',
    );
  });

  it("an unknown field, listing the known ones", async () => {
    const message = await fileError({ concurency: 4 });
    expect(message).toContain('unknown field "concurency"');
    expect(message).toContain("concurrency");
    expect(message).toContain("report.formats");
  });

  it("an API key written into the file, without repeating it", async () => {
    for (const name of ["apiKey", "apikey", "api_key", "API-KEY"]) {
      const message = await fileError({ db: "x.duckdb", [name]: "lk_live_do_not_print" });
      expect(message).toContain(`field "${name}" is not allowed`);
      expect(message).toContain("apiKeyFile");
      expect(message).toContain("LMS_API_KEY_FILE");
      expect(message).not.toContain("lk_live_do_not_print");
    }
    const nested = await fileError({ report: { apiKey: "lk_live_do_not_print" } });
    expect(nested).toContain('field "report.apiKey" is not allowed');
  });

  it("a file that is not JSON, by position and never by content", async () => {
    const message = await fileError('{\n  "db": "x.duckdb",\n  "note": "lk_live_secret" oops\n}');
    expect(message).toMatch(/is not valid JSON at line 3, column \d+: fix the syntax$/);
    expect(message).not.toContain("lk_live_secret");
  });

  it("a comment or a comma before a closing bracket, named as what JSON does not allow", async () => {
    const comment = await fileError('{\n  // the weekly job\n  "db": "x.duckdb"\n}');
    expect(comment).toMatch(
      /is not valid JSON at line 2, column 3 \(JSON has no comments: remove it\): fix the syntax$/,
    );
    const comma = await fileError('{\n  "db": "x.duckdb",\n}');
    expect(comma).toMatch(
      /is not valid JSON at line 3, column 1 \(a comma before "\}": JSON allows none after the last item\): fix the syntax$/,
    );
  });

  it("a file that is not an object", async () => {
    expect(await fileError("[1, 2]")).toContain("must hold a JSON object");
  });

  it("a named config file that does not exist", async () => {
    const message = await usageErrorOf(() =>
      resolveConfig({ flags: { config: "missing.json" }, env: {}, cwd: tmp.dir }),
    );
    expect(message).toBe(
      `the config file ${join(tmp.dir, "missing.json")} does not exist: check --config or LMS_CONFIG`,
    );
  });

  it("a broken file is reported even where a flag overrides the field", async () => {
    const message = await fileError({ concurrency: -1 });
    expect(message).toContain('field "concurrency"');
    const again = await usageErrorOf(() =>
      resolveConfig({ flags: { concurrency: 4 }, env: {}, cwd: tmp.dir }),
    );
    expect(again).toContain('field "concurrency"');
  });

  it("--concurrency auto or a number, from any source, and --max-concurrency", async () => {
    const resolved = (flags: Record<string, unknown>, env: Record<string, string> = {}) =>
      resolveConfig({ flags, env, cwd: tmp.dir });
    expect((await resolved({ concurrency: "auto" })).concurrency).toBe("auto");
    expect((await resolved({ concurrency: "12" })).concurrency).toBe(12);
    expect((await resolved({}, { LMS_CONCURRENCY: "Auto" })).concurrency).toBe("auto");
    const max = await resolved({ "max-concurrency": 128 }, { LMS_CONCURRENCY: "8" });
    expect(max).toMatchObject({ concurrency: 8, maxConcurrency: 128 });
    expect(max.sources.maxConcurrency).toBe("--max-concurrency");
    tmp.write(
      "lms-export.config.json",
      JSON.stringify({ concurrency: "auto", maxConcurrency: 32 }),
    );
    expect(await resolved({})).toMatchObject({ concurrency: "auto", maxConcurrency: 32 });
    expect(await usageErrorOf(() => resolved({ concurrency: "fast" }))).toBe(
      'option --concurrency must be "auto" or a whole number from 1 to 256 (got "fast")',
    );
    expect(await usageErrorOf(() => resolved({ "max-concurrency": 0 }))).toBe(
      "option --max-concurrency must be a whole number from 1 to 256 (got 0)",
    );
  });

  it("a wrong environment variable", async () => {
    const envError = (env: Record<string, string>) =>
      usageErrorOf(() => resolveConfig({ flags: {}, env, cwd: tmp.dir }));
    expect(await envError({ LMS_CONCURRENCY: "abc" })).toBe(
      'environment variable LMS_CONCURRENCY must be "auto" or a whole number from 1 to 256 (got "abc")',
    );
    expect(await envError({ LMS_CONCURRENCY: "2.5" })).toContain(
      'LMS_CONCURRENCY must be "auto" or a whole number',
    );
    expect(await envError({ LMS_MAX_CONCURRENCY: "auto" })).toBe(
      'environment variable LMS_MAX_CONCURRENCY must be a whole number from 1 to 256 (got "auto")',
    );
    expect(await envError({ LMS_PAGE_SIZE: "0" })).toContain(
      "LMS_PAGE_SIZE must be a whole number from 1 to 10000 (got 0)",
    );
    expect(await envError({ LMS_RATE: "-1" })).toContain(
      "LMS_RATE must be a number of requests per second",
    );
    expect(await envError({ LMS_ALLOW_HTTP: "maybe" })).toContain(
      'LMS_ALLOW_HTTP must be true or false (in the environment: 1/0, true/false, yes/no) (got "maybe")',
    );
    expect(await envError({ LMS_LOG_FORMAT: "XML" })).toContain(
      'LMS_LOG_FORMAT must be "human" or "json" (got "xml")',
    );
    expect(await envError({ LMS_FORMAT: "csv,pdf" })).toContain(
      "LMS_FORMAT must be one or more of parquet, csv, xlsx",
    );
  });

  it("a wrong flag", async () => {
    const flagError = (flags: Record<string, unknown>) =>
      usageErrorOf(() => resolveConfig({ flags, env: {}, cwd: tmp.dir }));
    expect(await flagError({ concurrency: 0 })).toBe(
      'option --concurrency must be "auto" or a whole number from 1 to 256 (got 0)',
    );
    expect(await flagError({ concurrency: Number.NaN })).toBe(
      'option --concurrency must be "auto" or a whole number from 1 to 256 (got a value that is not a number)',
    );
    expect(await flagError({ "page-size": 20_000 })).toContain(
      "option --page-size must be a whole number from 1 to 10000",
    );
    expect(await flagError({ format: ["csv,docx"] })).toContain(
      "option --format must be one or more of parquet, csv, xlsx",
    );
    expect(await flagError({ param: ["days"] })).toBe(
      'option --param must be KEY=VALUE, e.g. --param days=30 (got "days")',
    );
    expect(await flagError({ param: ["due_days=3", "group_id=2", "due_days=30"] })).toBe(
      'option --param due_days is given twice ("3" and "30"), and only the last would count: give it once',
    );
  });

  it("an empty entry in a --format or LMS_FORMAT list, named by its place", async () => {
    const fix =
      "is empty (a comma too many); give one or more of parquet, csv, xlsx, html (comma-separated on the command line)";
    const refusal = (flags: Record<string, unknown>, env: Record<string, string> = {}) =>
      usageErrorOf(() => resolveConfig({ flags, env, cwd: tmp.dir }));
    expect(await refusal({ format: ["csv,,xlsx"] })).toBe(
      `option --format "csv,,xlsx": entry 2 of 3 ${fix}`,
    );
    expect(await refusal({ format: ["csv", ""] })).toBe(
      `option --format "csv,": entry 2 of 2 ${fix}`,
    );
    expect(await refusal({}, { LMS_FORMAT: "csv, ,html" })).toBe(
      `environment variable LMS_FORMAT "csv, ,html": entry 2 of 3 ${fix}`,
    );
    expect(await refusal({}, { LMS_FORMAT: ",csv" })).toBe(
      `environment variable LMS_FORMAT ",csv": entry 1 of 2 ${fix}`,
    );
  });

  it("refuses --api-key without repeating its value", async () => {
    const message = await usageErrorOf(() =>
      resolveConfig({ flags: { "api-key": "lk_live_on_the_command_line" }, env: {}, cwd: tmp.dir }),
    );
    expect(message).toContain("--api-key is not accepted");
    expect(message).toContain("--api-key-file");
    expect(message).toContain("LMS_API_KEY");
    expect(message).not.toContain("lk_live_on_the_command_line");
  });

  it("checks the base URL and says where it came from", async () => {
    const fromEnv = await usageErrorOf(() =>
      resolveConfig({
        flags: {},
        env: { LMS_BASE_URL: "http://lms.example.com/api-v2" },
        cwd: tmp.dir,
      }),
    );
    expect(fromEnv).toContain("plain http");
    expect(fromEnv).toContain("(base URL from LMS_BASE_URL)");
    tmp.write(
      "lms-export.config.json",
      JSON.stringify({ baseUrl: "https://u:pw-secret@lms.example.com/" }),
    );
    const fromFile = await usageErrorOf(() => resolveConfig({ flags: {}, env: {}, cwd: tmp.dir }));
    expect(fromFile).toContain("user name or password");
    expect(fromFile).toContain("(base URL from");
    expect(fromFile).not.toContain("pw-secret");
  });
});
