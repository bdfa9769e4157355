/**
 * The `report` command line a run's mail problems print (src/cli/resend-command.ts), from command
 * lines parsed by the CLI's own definitions: after `run`, only the options `report` takes are
 * repeated; values are quoted for a POSIX shell (sh reads each back as given), a value starting
 * with "-" stays a value, defaults are not said, and the mail options are replaced; thousands of
 * managers' addresses are said in options a program can be started with.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { processContext } from "../../src/cli/context.js";
import { checkCommandLine } from "../../src/cli/main.js";
import {
  givenMailWords,
  reportCommandLine,
  resendMailWords,
} from "../../src/cli/resend-command.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const ctx = processContext(new AbortController().signal);
const dir = tempDirForFile("lms-resend-command-");

/** The words sh makes of `command` (without its leading `lms-export`). */
function shellWords(command: string): string[] {
  const out = execFileSync("sh", ["-c", `printf '%s\\0' ${command.replace(/^lms-export /, "")}`]);
  return out.toString("utf8").split("\0").slice(0, -1);
}

describe("the report command line sending mail again", () => {
  test("after run: report's options only, each value read back by sh as given", async () => {
    // In the order report declares them, as the command says them again.
    const kept = ["--portal", "acme", "--out", "it's out", "--param", "group_id=3"];
    const odd = ["--param", "label=a $b `c`", "--catalog=-odd"];
    const extract = ["--base-url", "https://lms.example.com/api-v2", "--concurrency", "4"];
    const argv = await checkCommandLine(
      ["run", "team-list", ...extract, "--incremental", ...kept, ...odd, "--mail"].concat([
        "--mail-only",
        "a@example.com",
      ]),
      ctx,
    );
    const command = reportCommandLine(
      argv,
      ["team-list"],
      resendMailWords(argv, [{ address: "b@example.com", part: undefined }]),
    );
    expect(command).not.toMatch(/base-url|concurrency|incremental|a@example\.com/);
    expect(shellWords(command)).toEqual(
      ["report", "team-list", ...kept, ...odd].concat(["--mail", "--mail-only", "b@example.com"]),
    );
  });

  test("--mail-to's run is sent again with --mail-to; a default is not said", async () => {
    const argv = await checkCommandLine(
      ["report", "weekly", "--mail-to", "a@example.com,b@example.com", "--neutralise-formulas"],
      ctx,
    );
    expect(
      reportCommandLine(
        argv,
        ["weekly"],
        resendMailWords(argv, [{ address: "b@example.com", part: undefined }]),
      ),
    ).toBe("lms-export report weekly --mail-to b@example.com");
    expect(givenMailWords(argv)).toEqual(["--mail-to", "a@example.com,b@example.com"]);
  });

  test("an address starting with - stays the value of --mail-only or --mail-to when read back", async () => {
    const boss = { address: "-boss@example.com", part: undefined };
    const other = { address: "b@example.com", part: "share" as const };
    for (const given of [["--mail", "--mail-only=-x@example.com"], ["--mail-to=-x@example.com"]]) {
      const argv = await checkCommandLine(["report", "weekly", ...given], ctx);
      const key = argv["mail-to"] === undefined ? "mail-only" : "mail-to";
      const cases: [string[], string][] = [
        [resendMailWords(argv, [boss, other]), "-boss@example.com"],
        [givenMailWords(argv), "-x@example.com"],
      ];
      for (const [mail, first] of cases) {
        const again = await checkCommandLine(shellWords(reportCommandLine(argv, ["w"], mail)), ctx);
        expect(String(again[key]).split(",")[0]).toBe(first);
      }
    }
  });

  test("an address a shell must quote is quoted once: read back by sh, it is the address", async () => {
    // An apostrophe is allowed in an address (RFC 5322 atext), as are * ? $ and friends.
    const given = ["o'brien@example.com", "ops*$x@example.com"];
    for (const mailArgs of [["--mail"], ["--mail-to", "a@example.com"]]) {
      const argv = await checkCommandLine(["report", "weekly", ...mailArgs], ctx);
      const targets = given.map((address) => ({ address, part: undefined }));
      const command = reportCommandLine(argv, ["weekly"], resendMailWords(argv, targets));
      const words = shellWords(command);
      expect(words.at(-1)).toBe(given.join(","));
    }
  });
});

test("thousands of managers not reached: a command the shell can start, naming every one", async () => {
  const argv = await checkCommandLine(["report", "team-list", "--mail"], ctx);
  // 6,000 shares of a split report that the server never took: about 190 KB of addresses.
  const targets = Array.from({ length: 6000 }, (_, n) => ({
    address: `manager.number.${n}@example.com`,
    part: undefined,
  }));
  const command = reportCommandLine(argv, ["team-list"], resendMailWords(argv, targets));
  // Pasted into sh as printed, with a program that says the words it was started with in place
  // of lms-export: Linux refuses to start any program given one word over 128 KiB.
  const script = join(dir, "resend.sh");
  const echo = `"${process.execPath}" -e 'process.stdout.write(JSON.stringify(process.argv.slice(1)))' --`;
  writeFileSync(script, `${command.replace(/^lms-export /, `${echo} `)}\n`);
  const words = JSON.parse(execFileSync("sh", [script]).toString("utf8")) as string[];
  expect(words.slice(0, 3)).toEqual(["report", "team-list", "--mail"]);
  const again = await checkCommandLine(words, ctx);
  const named = [again["mail-only"]].flat().map(String).join(",").split(",");
  expect(named).toEqual(targets.map((t) => t.address));
});
