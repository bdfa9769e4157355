/**
 * A stop (Ctrl-C, SIGTERM) that comes while a secret's named pipe is still being opened stops the
 * read: the stop was listened for only once the pipe was open, so one in between was missed and
 * the command waited for the pipe's writer to close its end, then went on with an empty secret.
 * Also the race behind an occasional hang of pipe-descriptor.test.ts. A real named pipe.
 */
import { execFileSync } from "node:child_process";
import { constants, open } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { readPipe } from "../../src/config/pipe-secret.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-pipe-stop-");

test("a stop while the pipe is being opened ends the read as interrupted", async () => {
  const path = join(dir, "key-pipe");
  execFileSync("mkfifo", ["-m", "600", path]);
  const controller = new AbortController();
  const reading = readPipe(path, { max: 1000, what: "API key", signal: controller.signal }).then(
    (text) => `read ${JSON.stringify(text)}`,
    (error: unknown) => String(error),
  );
  // readPipe is now waiting for its open, which runs in the thread pool.
  controller.abort();
  // A writer that closes at once: without the stop, the read ends with nothing read. Opened
  // read-write, which never blocks on a FIFO: a write-only open waits for a reader, and with the
  // stop heard the reader may have closed its end before this open runs in the thread pool, so
  // the test hung for its 60 s when the machine was busy.
  const writer = await open(path, constants.O_RDWR);
  await writer.close();
  expect(await reading).toBe("LmsExportError: interrupted");
});
