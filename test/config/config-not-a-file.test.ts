/**
 * A config file that is a device or a folder, or is larger than any config (1 MiB), is refused at
 * once, in one line naming it, before anything is read from it: /dev/zero and /dev/urandom have no
 * end. A named pipe (`--config <(envsubst < tmpl.json)`) is read to its writer's end, up to 1 MiB.
 * Real files, devices and a real named pipe; loadConfigFile in this process.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfigFile } from "../../src/config/config-file.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { usageErrorOf } from "../helpers/usage-error.js";

const dir = tempDirForFile("lms-config-not-a-file-");
const CHECK = "check --config or LMS_CONFIG";

describe("a config file that is not a regular file of a config's size", () => {
  it.each([
    ["/dev/zero", "a device"],
    ["/dev/urandom", "a device"],
    ["/dev/null", "a device"],
  ])("%s is refused as %s", async (path, kind) => {
    expect(await usageErrorOf(() => loadConfigFile(path))).toBe(
      `the config file ${path} is ${kind}, not a regular file: ${CHECK}`,
    );
  });

  it("a named pipe is read to its writer's end (<(envsubst ...)), and refused past 1 MiB", async () => {
    const pipe = join(dir, "config.fifo");
    execFileSync("mkfifo", [pipe]);
    const writer = (command: string) =>
      new Promise<void>((resolve) => execFile("sh", ["-c", command], () => resolve()));
    const written = writer(`printf '{"db": "piped.duckdb"}' > ${pipe}`);
    expect((await loadConfigFile(pipe)).values).toMatchObject({ db: "piped.duckdb" });
    await written;
    const flood = writer(`head -c 2000000 /dev/zero > ${pipe}`);
    expect(await usageErrorOf(() => loadConfigFile(pipe))).toBe(
      `the config file ${pipe} gave more than the 1 MiB a config file may be: ${CHECK}`,
    );
    await flood;
  });

  it("a folder is refused as one", async () => {
    const folder = join(dir, "config.json");
    mkdirSync(folder);
    expect(await usageErrorOf(() => loadConfigFile(folder))).toBe(
      `the config file ${folder} is a folder, not a file: ${CHECK}`,
    );
  });

  it("a file over 1 MiB is refused by its size; one just under it is read", async () => {
    const big = join(dir, "big.json");
    writeFileSync(big, `{"db": "x.duckdb"}${" ".repeat(1024 * 1024)}`);
    expect(await usageErrorOf(() => loadConfigFile(big))).toBe(
      `the config file ${big} is 1048594 bytes, more than the 1048576 (1 MiB) a config file may be: ${CHECK}`,
    );
    const fits = join(dir, "fits.json");
    writeFileSync(fits, `{"db": "x.duckdb"}${" ".repeat(1024 * 1024 - 18)}`);
    expect((await loadConfigFile(fits)).values).toMatchObject({ db: "x.duckdb" });
  });
});
