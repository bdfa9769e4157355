/**
 * A config file that is not JSON is one line naming where it goes wrong, by line and column, for
 * every kind of mistake (the parser states a position for some only), and never by content; an
 * empty file says so; one holding a key twice in one object (which JSON.parse accepts, keeping
 * the last) names it and both its lines. The built CLI in a real process.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-config-syntax-");

async function configError(name: string, text: string): Promise<{ code: number; line: string }> {
  const file = join(dir, name);
  writeFileSync(file, text);
  const run = await runCli(["extract", "--config", file], { cwd: dir });
  const lines = run.stderr.split("\n").filter((l) => l !== "");
  expect(lines).toHaveLength(1);
  return { code: run.code ?? -1, line: lines[0] ?? "" };
}

describe("a config file that is not JSON", () => {
  it.each([
    ["unquoted.json", '{\n  "baseUrl": "x",\n  db: "lk_live_secret"\n}\n', "at line 3, column 3"],
    ["single.json", "{\n  \"apiKeyFile\": 'lk_live_secret'\n}\n", "at line 2, column 17"],
    ["literal.json", '{"quiet": tru, "db": "lk_live_secret"}', "at line 1, column 14"],
    [
      "comma.json",
      '{"db": "lk_live_secret",}',
      'at line 1, column 25 (a comma before "}": JSON allows none after the last item)',
    ],
    [
      "comment.json",
      '{\n  // lk_live_secret\n  "db": "x"\n}',
      "at line 2, column 3 (JSON has no comments: remove it)",
    ],
    ["short.json", '{"db": "lk_live_secret"', "(it ends too soon)"],
    ["lms.yaml", "db: lk_live_secret\n", "at line 1, column 1 (config files are JSON, not YAML)"],
  ])("%s names where, never what", async (name, text, where) => {
    const { code, line } = await configError(name, text);
    const file = join(dir, name);
    expect(line).toBe(
      `lms-export: the config file ${file} is not valid JSON ${where}: fix the syntax`,
    );
    expect(line).not.toContain("lk_live_secret");
    expect(code).toBe(2);
  });

  it("an empty file says it is empty", async () => {
    const { code, line } = await configError("empty.json", "\n");
    expect(line).toContain(`${join(dir, "empty.json")} is empty: write a JSON object such as`);
    expect(code).toBe(2);
  });
});

describe("a config file holding a key twice in one object", () => {
  it.each([
    [
      "top.json",
      '{\n  "db": "a.duckdb",\n  "quiet": true,\n  "db": "b.duckdb"\n}\n',
      "db",
      "lines 2 and 4",
    ],
    [
      "portal.json",
      '{"portals": {\n  "acme": {"baseUrl": "https://a.example.com/api-v2",\n    "baseUrl": "https://b.example.com/api-v2"}}}',
      "portals.acme.baseUrl",
      "lines 2 and 3",
    ],
    ["escaped.json", '{"db": "a.duckdb", "d\\u0062": "b.duckdb"}', "db", "both on line 1"],
  ])("%s is refused, naming the field and both lines", async (name, text, field, lines) => {
    const { code, line } = await configError(name, text);
    expect(line).toBe(
      `lms-export: ${join(dir, name)}: field "${field}" is written twice (${lines}), and only the last would count: remove one`,
    );
    expect(code).toBe(2);
  });
});
