/** The config file's "portals": validated per field, and layered under the flags by --portal. */
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { resolveConfig } from "../../src/config/resolve.js";
import { scratchDir } from "../helpers/temp-dir.js";
import { usageErrorOf } from "../helpers/usage-error.js";

const made: { remove(): void }[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) dir.remove();
});

function configDir(portals: unknown) {
  const dir = scratchDir("lms-portals-config-");
  made.push(dir);
  dir.write(
    "lms-export.config.json",
    JSON.stringify({ db: "top.duckdb", concurrency: 5, portals }),
  );
  return dir.dir;
}

const resolveIn = (cwd: string, flags: Record<string, unknown> = {}, env = {}) =>
  resolveConfig({ flags, env, cwd, isTTY: false });

describe("config portals", () => {
  test("--portal layers the portal's settings over the file's, under the flags", async () => {
    const cwd = configDir({
      acme: { baseUrl: "https://acme.example.com/api-v2", apiKeyFile: "keys/acme", concurrency: 8 },
      globex: { baseUrl: "https://globex.example.com/api-v2", db: "data/globex.duckdb" },
    });
    const acme = await resolveIn(cwd, { portal: "acme" }, { LMS_DB: "env.duckdb" });
    expect(acme.portal).toBe("acme");
    expect(acme.portals).toEqual(["acme", "globex"]);
    expect(acme.baseUrl).toBe("https://acme.example.com/api-v2");
    expect(acme.apiKeyFile).toBe(join(cwd, "keys/acme"));
    expect(acme.concurrency).toBe(8);
    // Its own database, not the one LMS_DB or the file's top level name.
    expect(acme.db).toBe(join(cwd, "lms-acme.duckdb"));
    const globex = await resolveIn(cwd, { portal: "globex", concurrency: 2 });
    expect(globex.db).toBe(join(cwd, "data/globex.duckdb"));
    expect(globex.concurrency).toBe(2);
    expect(globex.sources.db).toContain("portals.globex.db");
    const none = await resolveIn(cwd);
    expect(none.portal).toBeUndefined();
    expect(none.db).toBe(join(cwd, "top.duckdb"));
  });

  test("a bad portal entry is one line naming the field", async () => {
    const cases: [unknown, string][] = [
      [
        { acme: { baseUrl: "https://a.example.com/api-v2", colour: "red" } },
        '"portals.acme.colour"',
      ],
      [{ acme: { concurrency: 0 } }, 'field "portals.acme.concurrency" must be'],
      [{ "../x": {} }, "is not a portal name"],
      [{ acme: { apiKey: "secret" } }, 'field "portals.acme.apiKey" is not allowed'],
      [["acme"], 'field "portals" must be an object'],
    ];
    for (const [portals, message] of cases) {
      const cwd = configDir(portals);
      expect(await usageErrorOf(() => resolveIn(cwd))).toContain(message);
    }
  });

  test("a portal's address with a key or a password in it points to its own key file", async () => {
    const cwd = configDir({
      acme: { baseUrl: "https://acme.example.com/api-v2?key=k-3f9a", apiKeyFile: "acme.key" },
      globex: { baseUrl: "https://ops:pw-77c1@globex.example.com/api-v2", apiKeyFile: "g.key" },
    });
    const file = join(cwd, "lms-export.config.json");
    const acme = await usageErrorOf(() => resolveIn(cwd, { portal: "acme" }));
    expect(acme).toBe(
      `the base URL https://acme.example.com/api-v2 has a query string or fragment (not shown): give the API's address alone, e.g. https://lms.example.com/api-v2, and the API key in a file named by "portals.acme.apiKeyFile" (or --api-key-file FILE) (base URL from ${file} (portals.acme.baseUrl))`,
    );
    const globex = await usageErrorOf(() => resolveIn(cwd, { portal: "globex" }));
    expect(globex).toBe(
      `the base URL https://globex.example.com/api-v2 contains a user name or password: remove them from the URL and give the API key in a file named by "portals.globex.apiKeyFile" (or --api-key-file FILE) (base URL from ${file} (portals.globex.baseUrl))`,
    );
    // Without a portal the general places stand: the environment applies there.
    const flag = await usageErrorOf(() =>
      resolveIn(cwd, { baseUrl: "https://lms.example.com/api-v2?key=x" }),
    );
    expect(flag).toContain("or LMS_API_KEY_FILE) or in LMS_API_KEY (base URL from --base-url)");
  });
});
