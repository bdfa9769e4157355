/**
 * A child script for pipe-descriptor.test.ts: reads the named pipe argv[2] with readPipe, stops
 * the read as a SIGTERM would once a writer holds the pipe open, then runs the garbage collector
 * (node --expose-gc) and prints "survived". Any descriptor readPipe left to the collector is
 * closed then, a second time.
 */
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { readPipe } from "../../src/config/pipe-secret.js";

const path = process.argv[2] ?? "";
const controller = new AbortController();
const reading = readPipe(path, { max: 1000, what: "API key", signal: controller.signal }).catch(
  (error: unknown) => String(error),
);
const writer = await open(path, constants.O_WRONLY);
controller.abort();
console.log(await reading);
await writer.close();
const gc = (globalThis as { gc?: () => void }).gc;
for (let i = 0; i < 5; i++) {
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
}
console.log("survived");
