/**
 * The flags users and scripts type are those the documentation names: every flag a command's
 * `--help` lists is documented in the command's README section or in a settings table, and every
 * flag the README or docs/api.md shows after a command is one that command accepts. Also, every
 * command of `lms-export --help` has a README section. In-process through main().
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-help-docs-");
const README = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
const API_DOC = readFileSync(join(PROJECT_ROOT, "docs", "api.md"), "utf8");

/** Each command and the README headings whose sections document it. */
const SECTIONS: Readonly<Record<string, readonly string[]>> = {
  extract: ["### `extract`"],
  report: ["### `report`"],
  run: ["### `run`", "### `extract`", "### `report`"],
  sql: ["### `sql`"],
  check: ["### `check`"],
  completion: ["### `completion`"],
  list: ["### `list`"],
  schedule: ["### `schedule`"],
  apply: ["### `apply`"],
  simulate: ["### `simulate`"],
  demo: ["### `demo`"],
  publish: ["### `publish --lake`", "### `publish --postgres`", "### Several portals"],
  "roster import": ["## Roster"],
  checkpoint: ["### `checkpoint`"],
};
const COMMANDS = Object.keys(SECTIONS).filter((command) => command !== "completion");

const FLAG = /--[a-z][a-z0-9-]*/g;
const flagsIn = (text: string): Set<string> => new Set(text.match(FLAG) ?? []);

/** The text from a heading to the next heading of any level. */
function section(heading: string): string {
  const start = README.indexOf(`${heading}`);
  expect(start, `README heading ${heading}`).toBeGreaterThanOrEqual(0);
  const rest = README.slice(start + heading.length);
  const end = rest.search(/^#+ /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The flags of the settings tables (a row per setting, its flag in the second column). */
function settingsFlags(): Set<string> {
  const rows = README.split("\n").filter((line) => /^\| [^|]+ \| `--/.test(line));
  const flags = flagsIn(rows.map((row) => row.split("|")[2] ?? "").join(" "));
  // Named in prose beside the table: "or a file named with `--config FILE`".
  flags.add("--config");
  return flags;
}

/** The long options a command's help lists. */
async function helpFlags(command: string): Promise<Set<string>> {
  const run = await runInProcess([...command.split(" "), "--help"], cwd, {});
  expect(run.code, run.stderr).toBe(0);
  // The examples below the options wrap their command lines, which may start with a flag.
  const options = run.stdout.split("\nExamples:")[0] ?? "";
  const listed = [...options.matchAll(/^\s+(?:-\w, )?(--[a-z][a-z0-9-]*)/gm)].map((m) => m[1]);
  return new Set(
    listed.filter(
      (flag): flag is string => flag !== undefined && flag !== "--help" && flag !== "--version",
    ),
  );
}

/** yargs takes `--no-x` for any `--x`: a default-on switch is documented by its negation. */
const negated = (flag: string): string => `--no-${flag.slice(2)}`;

interface Usage {
  readonly command: string;
  readonly text: string;
}

const COMMAND_AT = new RegExp(`^(${COMMANDS.map((c) => c.replace(" ", "\\s+")).join("|")})\\b`);

/** `text` read as a command line: its command and arguments, and the command after `--`. */
function usagesOf(text: string): Usage[] {
  const command = COMMAND_AT.exec(text)?.[1]?.replace(/\s+/, " ");
  if (command === undefined) return [];
  const args = text.slice(command.length);
  if (command !== "schedule" || !args.includes(" -- ")) return [{ command, text: args }];
  const [own = "", after = ""] = args.split(" -- ");
  return [{ command, text: own }, ...usagesOf(after.trim())];
}

/** Every `lms-export COMMAND …` of the fenced blocks, synopsis continuation lines joined. */
function blockUsages(markdown: string): Usage[] {
  const usages: Usage[] = [];
  for (const block of markdown.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)) {
    const lines = (block[1] ?? "").replace(/\\\n\s*/g, " ").split("\n");
    for (const [i, line] of lines.entries()) {
      const at = line.search(/(?:^|\s)lms-export /);
      if (at < 0) continue;
      let text = line.slice(line.indexOf("lms-export ", at) + "lms-export ".length);
      for (const next of lines.slice(i + 1)) {
        if (!/^\s{8,}\[/.test(next)) break;
        text += ` ${next.trim()}`;
      }
      usages.push(...usagesOf(text.replace(/\s+#.*$/, "")));
    }
  }
  return usages;
}

/** Every inline code span that is a command line (`extract --portal NAME`, `lms-export list`). */
function inlineUsages(markdown: string): Usage[] {
  const withoutBlocks = markdown.replace(/^```[\s\S]*?^```$/gm, "");
  return [...withoutBlocks.matchAll(/`([^`\n]+)`/g)].flatMap((span) =>
    usagesOf((span[1] ?? "").replace(/^(?:npx )?lms-export /, "")),
  );
}

let accepted: Map<string, Set<string>>;

beforeAll(async () => {
  accepted = new Map();
  for (const command of COMMANDS) accepted.set(command, await helpFlags(command));
});

describe("the README and --help name the same commands and flags", () => {
  it("every command of lms-export --help has a README section", async () => {
    const run = await runInProcess(["--help"], cwd, {});
    const listed = [...run.stdout.matchAll(/^ {2}lms-export ([a-z]+)/gm)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThan(10);
    for (const command of listed) {
      const documented = Object.keys(SECTIONS).some((c) => c.split(" ")[0] === command);
      expect(documented, `lms-export ${command} has no README section`).toBe(true);
    }
  });

  it("every flag of a command's --help is in its README section or a settings table", () => {
    const general = settingsFlags();
    const missing: string[] = [];
    for (const command of COMMANDS) {
      const documented = new Set(
        (SECTIONS[command] ?? []).flatMap((h) => [...flagsIn(section(h))]),
      );
      for (const flag of accepted.get(command) ?? []) {
        const named = [flag, negated(flag)].some((f) => documented.has(f) || general.has(f));
        if (!named) missing.push(`${command} ${flag}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("every flag the README and docs/api.md show after a command is one it accepts", () => {
    const usages = [README, API_DOC].flatMap((doc) => [...blockUsages(doc), ...inlineUsages(doc)]);
    expect(usages.length).toBeGreaterThan(50);
    const unknown: string[] = [];
    for (const { command, text } of usages) {
      const flags = accepted.get(command) ?? new Set<string>();
      for (const flag of flagsIn(text)) {
        const typed = flag.startsWith("--no-") ? `--${flag.slice(5)}` : flag;
        if (!flags.has(flag) && !flags.has(typed))
          unknown.push(`${command} ${flag} (in "${text.trim()}")`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
