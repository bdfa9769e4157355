/**
 * Every `sh` block of the README runs, in order, in one scratch folder, as a newcomer would paste
 * it: `npx lms-export` is the built CLI of this checkout. `npm ci` is already done, and `npm test`
 * is this very suite, so both are no-ops here. Blocks marked `text` are shown, not run: they need
 * a real portal, cron or systemd.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "./helpers/spawn-cli.js";

const BIN = join(PROJECT_ROOT, "bin", "lms-export.js");

const PRELUDE = `set -euo pipefail
npx() { if [ "$1" = lms-export ]; then shift; node "$LMS_EXPORT_BIN" "$@"; else echo "unexpected: npx $*" >&2; return 1; fi; }
npm() { case "$*" in ci|test) return 0;; *) echo "unexpected: npm $*" >&2; return 1;; esac; }
`;

/** The fenced blocks of a Markdown text with the given info string. */
function fencedBlocks(markdown: string, info: string): string[] {
  const blocks: string[] = [];
  const pattern = new RegExp(`^\`\`\`${info}\\n([\\s\\S]*?)^\`\`\`$`, "gm");
  for (const match of markdown.matchAll(pattern)) blocks.push(match[1] ?? "");
  return blocks;
}

function runBlock(script: string, cwd: string): Promise<{ code: number | null; output: string }> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    LMS_EXPORT_BIN: BIN,
    NO_COLOR: "1",
  };
  for (const name of Object.keys(env))
    if (name.startsWith("LMS_") && name !== "LMS_EXPORT_BIN") delete env[name];
  // Its own process group, so whatever the block left in the background is stopped with it.
  const child = spawn("bash", ["-c", `${PRELUDE}${script}`], {
    cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    output += d.toString();
  });
  return new Promise((resolve) => {
    // A background job started through the npx shell function runs in a subshell that `kill %1`
    // stops without its node child; that child still holds the pipes, so wait for bash itself.
    child.once("exit", (code) => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // the group is already gone
      }
      child.once("close", () => resolve({ code, output }));
    });
  });
}

let dir: string;
let blocks: string[];

beforeAll(async () => {
  if (!existsSync(join(PROJECT_ROOT, "dist", "cli", "main.js"))) {
    throw new Error("dist/ is missing: run `npm run build` (npm test does it first)");
  }
  dir = await mkdtemp(join(tmpdir(), "lms-readme-"));
  blocks = fencedBlocks(await readFile(join(PROJECT_ROOT, "README.md"), "utf8"), "sh");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("README", () => {
  it("shows the two commands a newcomer needs", async () => {
    expect(blocks).toContain("npm ci && npx lms-export demo\n");
    expect(blocks).toContain("npm ci && npm test\n");
  });

  it("runs every sh block in order without an error", { timeout: 240_000 }, async () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const block of blocks) {
      const result = await runBlock(block, dir);
      expect(result.code, `${block}\n--- output ---\n${result.output}`).toBe(0);
    }
    expect(existsSync(join(dir, "lms-demo.duckdb"))).toBe(true);
    expect(existsSync(join(dir, "lms.duckdb"))).toBe(true);
  });
});
