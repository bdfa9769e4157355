/**
 * Temporary folders for tests, in the OS temp dir, always removed: per test, for a whole test
 * file, around one piece of work, or as a scratch folder with a helper to write files into it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach } from "vitest";
import { inTempFolder } from "../../src/files/temp-folder.js";

const made: string[] = [];

afterEach(async () => {
  for (const dir of made.splice(0)) {
    // Tests make files and directories read-only; restore so they can be removed.
    execFileSync("chmod", ["-R", "u+rwx", dir]);
    await rm(dir, { recursive: true, force: true });
  }
});

/** A fresh folder for the current test, removed after it (read-only parts included). */
export async function tempDir(prefix = "lms-load-"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * A folder for every test of the calling file, made at once and removed after its last test
 * (or when the process exits, should no test of the file run).
 */
export function tempDirForFile(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => {
    rmSync(dir, { recursive: true, force: true });
    leftAtExit.delete(dir);
  };
  leftAtExit.add(dir);
  afterAll(remove);
  return dir;
}

/**
 * The files' folders not yet removed, for one exit listener: a worker runs many test files
 * (vitest.config.ts), and a listener for each warned of a leak past ten.
 */
const leftAtExit = new Set<string>();
process.once("exit", () => {
  for (const dir of leftAtExit) rmSync(dir, { recursive: true, force: true });
});

/** Runs `use` in a fresh folder and removes it however `use` ends. */
export function withTempDir<T>(
  use: (dir: string) => Promise<T>,
  prefix = "lms-roster-",
): Promise<T> {
  return inTempFolder(prefix, use);
}

/** A fresh scratch folder, with a helper to write files into it; the caller removes it. */
export function scratchDir(prefix: string): {
  dir: string;
  write(name: string, text: string): string;
  remove(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
