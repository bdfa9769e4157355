import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh temp folder per test, with a helper to write files into it. */
export function tempDir(prefix: string): {
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

/** The bad-input message thrown by `run`, checked to be one line with exit code 2. */
export async function usageErrorOf(run: () => Promise<unknown>): Promise<string> {
  const { LmsExportError } = await import("../../src/errors/lms-export-error.js");
  const { exitCodeOf } = await import("../../src/cli/exit-codes.js");
  try {
    await run();
  } catch (error) {
    if (!(error instanceof LmsExportError)) throw error;
    if (exitCodeOf(error) !== 2) throw new Error(`exit code ${exitCodeOf(error)}`);
    if (error.message.includes("\n")) throw new Error(`two lines: ${error.message}`);
    return error.message;
  }
  throw new Error("expected a bad-input error");
}
