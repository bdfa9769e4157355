import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";

const SCRIPT = join(PROJECT_ROOT, "scripts", "check-sizes.mjs");
const run = promisify(execFile);

let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A scratch project whose src/ holds the given files. */
async function project(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "lms-sizes-"));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, "src", path)), { recursive: true });
    await writeFile(join(dir, "src", path), text);
  }
  return dir;
}

async function check(root: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [SCRIPT, root]);
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: failed.stdout };
  }
}

/** A function of `statements` + 4 lines of code, each statement followed by a comment and a blank line. */
function functionOf(name: string, statements: number): string {
  const body = Array.from({ length: statements }, (_, i) => `  x += ${i};\n  // why\n\n`);
  return `export function ${name}(): number {\n  let x = 0;\n${body.join("")}  return x;\n}\n`;
}

describe("check:sizes", () => {
  it("counts code lines only, and looks at src/extract and src/api alone", async () => {
    const root = await project({
      "extract/short.ts": functionOf("short", 56),
      "api/arrow.ts": `export const arrow = () => {\n  const s = \`a\n\${1}\nb\`;\n  return s;\n};\n`,
      "report/long.ts": functionOf("long", 500),
    });
    const result = await check(root);
    expect(result.output).toContain("check:sizes: 2 files in src/extract, src/api, none too long");
    expect(result.code).toBe(0);
  });

  it("fails on a long function and a long file, naming each", async () => {
    const root = await project({
      "extract/long.ts": functionOf("tooLong", 57),
      "api/big.ts": Array.from({ length: 401 }, (_, i) => `export const c${i} = ${i};\n`).join(""),
    });
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      "src/extract/long.ts: tooLong (line 1) has 61 lines of code (at most 60)",
    );
    expect(result.output).toContain("src/api/big.ts has 401 lines (at most 400)");
    expect(result.output).toContain("check:sizes: 2 problem(s)");
  });
});
