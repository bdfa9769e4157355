/**
 * An unknown field of the config file, at the top, in a section or in a portal entry, is one line
 * that names the closest known field when one is close, then the fields allowed there. The built
 * CLI in a real process.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-config-fields-");

describe("an unknown field of the config file", () => {
  it.each([
    [{ concurency: 4 }, 'unknown field "concurency"; did you mean "concurrency"? (known fields: '],
    [
      { report: { format: ["csv"] } },
      'unknown field "report.format"; did you mean "report.formats"?',
    ],
    [
      { portal: { acme: {} } },
      'unknown field "portal"; did you mean "portals" or "portalsAtOnce"?',
    ],
    [
      { portals: { acme: { baseURL: "https://acme.example.com/api-v2" } } },
      'unknown field "portals.acme.baseURL"; did you mean "baseUrl"? (a portal may set: ',
    ],
    [{ colour: "red" }, 'unknown field "colour" (known fields: '],
  ])("%j names the field it may have meant", async (content, expected) => {
    const file = join(dir, "lms.json");
    writeFileSync(file, JSON.stringify(content));
    const run = await runCli(["extract", "--config", file], { cwd: dir });
    expect(run.stderr).toMatch(/^lms-export: [^\n]*\n$/);
    expect(run.stderr).toContain(`lms-export: ${file}: ${expected}`);
    expect(run.code).toBe(2);
  });
});
