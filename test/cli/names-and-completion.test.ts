/** "Did you mean" for mistyped report names, and shell completion from a real child process. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { didYouMean, suggestNames } from "../../src/text/suggest-name.js";
import { runCli } from "../helpers/spawn-cli.js";

describe("names", () => {
  it("suggests names within two edits or starting with what was typed", () => {
    const known = ["weekly-compliance", "compliance", "completion", "access", "attempts"];
    expect(suggestNames("weekly-complianse", known)).toEqual(["weekly-compliance"]);
    expect(suggestNames("acess", known)).toEqual(["access"]);
    expect(suggestNames("att", known)).toEqual(["attempts"]);
    expect(suggestNames("zzzzzz", known)).toEqual([]);
    expect(didYouMean("complation", known)).toBe('; did you mean "completion"?');
  });

  it("says it in the error of a real process, and prints a completion script offering report", async () => {
    const typo = await runCli([
      "schedule",
      "--cron",
      "0 6 * * 1",
      "--",
      "report",
      "weekly-complianse",
    ]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean "weekly-compliance"?');
    // In bash whatever shell runs the tests: in fish it is refused (below).
    const script = await runCli(["completion"], { env: { SHELL: "/bin/bash" } });
    expect(script.code).toBe(0);
    expect(script.stdout).toContain("###-begin-lms-export-completions-###");
    expect(script.stdout).toContain("--get-yargs-completions");
    const offered = await runCli(["--get-yargs-completions", "lms-export", "rep"]);
    const words = offered.stdout.split("\n").filter((word) => word.startsWith("rep"));
    expect(words).toEqual(["report"]);
  });

  it("completion zsh and completion bash print that shell's script whatever shell runs them", async () => {
    const zsh = await runCli(["completion", "zsh"], { env: { SHELL: "/bin/bash" } });
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef lms-export\n/);
    const bash = await runCli(["completion", "bash"], { env: { SHELL: "/usr/bin/zsh" } });
    expect(bash.code).toBe(0);
    expect(bash.stdout).not.toContain("#compdef");
    // bash loads it and registers the completion for the command.
    const script = join(mkdtempSync(join(tmpdir(), "completion-")), "lms-export.bash");
    writeFileSync(script, bash.stdout);
    const registered = execFileSync("bash", ["-c", `source "${script}" && complete -p lms-export`]);
    expect(String(registered)).toContain("lms-export");
    const fish = await runCli(["completion", "fish"]);
    expect(fish.code).toBe(2);
    expect(fish.stderr).toBe(
      'lms-export: completion takes bash or zsh, got "fish"; see lms-export completion --help\n',
    );
  });

  it("completion alone in fish is refused as completion fish is, rather than print a script", async () => {
    const named = await runCli(["completion", "fish"], { env: { SHELL: "/bin/bash" } });
    const alone = await runCli(["completion"], { env: { SHELL: "/usr/bin/fish" } });
    expect(alone.code).toBe(2);
    expect(alone.stdout).toBe("");
    expect(alone.stderr).toBe(named.stderr);
  });

  it("completion --help prints the command's help, not the script", async () => {
    for (const flag of ["--help", "-h"]) {
      const help = await runCli(["completion", flag]);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(
        /^lms-export completion \[shell\]\n\nPrint a bash\/zsh completion script/,
      );
      expect(help.stdout).not.toContain("###-begin-lms-export-completions-###");
    }
  });
});
