/** The project's check scripts (scripts/*.mjs) run on a scratch project made for one test. */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterEach } from "vitest";
import { PROJECT_ROOT } from "./spawn-cli.js";

const run = promisify(execFile);
const made: string[] = [];

afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A scratch project whose src/ holds the given files, removed after the test. */
export async function scratchProject(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "lms-project-"));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, "src", path)), { recursive: true });
    await writeFile(join(dir, "src", path), text);
  }
  return dir;
}

/** Runs scripts/`script` on the project at `root`: its exit code and what it printed. */
export async function runProjectScript(
  script: string,
  root: string,
): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [join(PROJECT_ROOT, "scripts", script), root]);
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: failed.stdout };
  }
}
