/**
 * A file's stamp before it is read against the file after: grown, rewritten to the same size,
 * replaced or removed, it is refused in one line; untouched, it passes, and so does a named pipe
 * (no stamp: it is read until its writer closes it). Real files, their real stat.
 */
import { execFileSync } from "node:child_process";
import { appendFile, rename, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { checkUnchanged, fileStamp } from "../../src/tabular/file-stamp.js";
import { tempDir } from "../helpers/temp-dir.js";

const CHANGED = "people.csv changed while it was read; run again when it is complete";

async function file(text = "user_id\n1\n"): Promise<string> {
  const path = join(await tempDir("lms-stamp-"), "people.csv");
  await writeFile(path, text);
  return path;
}

describe("checkUnchanged", () => {
  test("an untouched file passes", async () => {
    const path = await file();
    const stamp = await fileStamp(path);
    expect(stamp?.size).toBe(10n);
    await expect(checkUnchanged(path, stamp, "people.csv")).resolves.toBeUndefined();
  });

  test.each([
    ["grown", (path: string) => appendFile(path, "2\n")],
    [
      "rewritten to the same size at another time",
      async (path: string) => {
        await writeFile(path, "user_id\n9\n");
        await utimes(path, new Date(2030, 0, 1), new Date(2030, 0, 1));
      },
    ],
    [
      "replaced by another file",
      async (path: string) => {
        await writeFile(`${path}.new`, "user_id\n1\n");
        await rename(`${path}.new`, path);
      },
    ],
    ["removed", (path: string) => rm(path)],
  ])("a file %s since is refused", async (_, change) => {
    const path = await file();
    const stamp = await fileStamp(path);
    await change(path);
    await expect(checkUnchanged(path, stamp, "people.csv")).rejects.toMatchObject({
      code: "bad-input",
      message: CHANGED,
    });
  });

  test("a named pipe has no stamp and passes", async () => {
    const path = join(await tempDir("lms-stamp-"), "people.csv");
    execFileSync("mkfifo", ["-m", "600", path]);
    const stamp = await fileStamp(path);
    expect(stamp).toBeUndefined();
    await expect(checkUnchanged(path, stamp, "people.csv")).resolves.toBeUndefined();
  });
});
