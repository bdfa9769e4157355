import { chmodSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readApiKey } from "../../src/config/api-key.js";
import { resolveConfig } from "../../src/config/resolve.js";
import type { LogFields, Logger } from "../../src/log/logger.js";
import { scratchDir } from "../helpers/temp-dir.js";
import { usageErrorOf } from "../helpers/usage-error.js";

const KEY = "lk_live_7c1f0e2d9a";

let tmp: ReturnType<typeof scratchDir>;
beforeEach(() => {
  tmp = scratchDir("lms-key-");
});
afterEach(() => {
  tmp.remove();
});

class Collecting implements Logger {
  readonly lines: { level: string; message: string; fields?: LogFields }[] = [];
  debug(message: string, fields?: LogFields) {
    this.lines.push({ level: "debug", message, fields });
  }
  info(message: string, fields?: LogFields) {
    this.lines.push({ level: "info", message, fields });
  }
  warn(message: string, fields?: LogFields) {
    this.lines.push({ level: "warn", message, fields });
  }
  error(message: string, fields?: LogFields) {
    this.lines.push({ level: "error", message, fields });
  }
}

function keyFile(name: string, content: string, mode = 0o600): string {
  const path = tmp.write(name, content);
  chmodSync(path, mode);
  return path;
}

async function keyFor(
  flags: Record<string, unknown>,
  env: Record<string, string>,
  logger?: Logger,
) {
  const config = await resolveConfig({ flags, env, cwd: tmp.dir });
  return readApiKey(config, env, { logger });
}

describe("readApiKey", () => {
  it("reads a key file given by flag, trimming the trailing newline, without a warning at 0600", async () => {
    keyFile("lms.key", `${KEY}\n`);
    const logger = new Collecting();
    expect(await keyFor({ "api-key-file": "lms.key" }, {}, logger)).toBe(KEY);
    expect(logger.lines).toEqual([]);
  });

  it("reads LMS_API_KEY_FILE, and CRLF endings and a BOM do not end up in the key", async () => {
    keyFile("win.key", `\uFEFF${KEY}\r\n`);
    expect(await keyFor({}, { LMS_API_KEY_FILE: join(tmp.dir, "win.key") })).toBe(KEY);
  });

  it("warns (not fails) when group or others may read the key file, never logging the key", async () => {
    const path = keyFile("open.key", KEY, 0o644);
    const logger = new Collecting();
    expect(await keyFor({ "api-key-file": path }, {}, logger)).toBe(KEY);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatchObject({ level: "warn", fields: { path, mode: "0644" } });
    expect(logger.lines[0]?.message).toContain("chmod 600");
    expect(JSON.stringify(logger.lines)).not.toContain(KEY);
  });

  it("takes LMS_API_KEY when no key file is named, trimmed", async () => {
    expect(await keyFor({}, { LMS_API_KEY: `  ${KEY}\n` })).toBe(KEY);
  });

  it("follows flags > environment > config file", async () => {
    keyFile("flag.key", "from-flag");
    keyFile("env.key", "from-env-file");
    keyFile("file.key", "from-config-file");
    tmp.write("lms-export.config.json", JSON.stringify({ apiKeyFile: "file.key" }));
    const envFile = join(tmp.dir, "env.key");
    expect(
      await keyFor(
        { "api-key-file": "flag.key" },
        { LMS_API_KEY_FILE: envFile, LMS_API_KEY: "from-env" },
      ),
    ).toBe("from-flag");
    expect(await keyFor({}, { LMS_API_KEY_FILE: envFile, LMS_API_KEY: "from-env" })).toBe(
      "from-env-file",
    );
    expect(await keyFor({}, { LMS_API_KEY: "from-env" })).toBe("from-env");
    expect(await keyFor({}, {})).toBe("from-config-file");
  });

  it("names the path of an existing file, never the content; a missing one by its setting", async () => {
    const empty = keyFile("empty.key", "\n  \n");
    expect(await usageErrorOf(() => keyFor({ "api-key-file": empty }, {}))).toBe(
      `the API key file ${empty} (from --api-key-file) is empty: write the API key on its first line`,
    );
    const twoLines = keyFile("two.key", `${KEY}\nsecond-line-secret\n`);
    const multi = await usageErrorOf(() => keyFor({ "api-key-file": twoLines }, {}));
    expect(multi).toContain(twoLines);
    expect(multi).toContain("more than one line");
    expect(multi).not.toContain(KEY);
    expect(multi).not.toContain("second-line-secret");
    const missing = join(tmp.dir, "nope.key");
    // A path that names no file may be the key itself: the setting is named, not its value.
    expect(await usageErrorOf(() => keyFor({}, { LMS_API_KEY_FILE: missing }))).toBe(
      "the API key file named by LMS_API_KEY_FILE does not exist: create it with the key on one line, or fix the setting",
    );
    mkdirSync(join(tmp.dir, "folder.key"));
    expect(await usageErrorOf(() => keyFor({ "api-key-file": "folder.key" }, {}))).toContain(
      "is a folder",
    );
  });

  it("names a key file that is a socket as such, not as a wrong path, and warns of nothing", async () => {
    const path = join(tmp.dir, "agent.sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const logger = new Collecting();
      const message = await usageErrorOf(() => keyFor({ "api-key-file": path }, {}, logger));
      expect(message).toBe(
        `the API key file ${path} (from --api-key-file) is a socket, not a file: name the file that holds the key`,
      );
      expect(logger.lines).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.skipIf(process.getuid?.() === 0)("names the path of a key file it may not read", async () => {
    const locked = keyFile("locked.key", KEY, 0o000);
    const message = await usageErrorOf(() => keyFor({ "api-key-file": locked }, {}));
    expect(message).toContain(locked);
    expect(message).toContain("permission denied");
  });

  it("says where a key may come from when there is none", async () => {
    const message = await usageErrorOf(() => keyFor({}, { LMS_API_KEY: "   " }));
    expect(message).toContain("no API key");
    expect(message).toContain("--api-key-file");
    expect(message).toContain("LMS_API_KEY");
  });

  it("never echoes a key given where a key-file path belongs (environment or config file)", async () => {
    const fromEnv = await usageErrorOf(() => keyFor({}, { LMS_API_KEY_FILE: KEY }));
    expect(fromEnv).toContain("(from LMS_API_KEY_FILE) names no file and looks like a key itself");
    expect(fromEnv).not.toContain(KEY);
    const slashy = "Zm9vYmFy/YmF6cXV4c2VjcmV0MTIz+A==";
    const base64 = await usageErrorOf(() => keyFor({}, { LMS_API_KEY_FILE: slashy }));
    expect(base64).not.toContain("YmF6cXV4c2VjcmV0MTIz");
    tmp.write("lms-export.config.json", JSON.stringify({ apiKeyFile: KEY }));
    const fromFile = await usageErrorOf(() => keyFor({}, {}));
    expect(fromFile).toContain("looks like a key itself");
    expect(fromFile).not.toContain(KEY);
  });
});
