/**
 * Preload for a child `lms-export publish --lake` (NODE_OPTIONS=--import=<this file>): right after
 * the Nth rename the process makes (LMS_TEST_PAUSE_AFTER_RENAME=N), it stops itself with SIGSTOP,
 * so that the test can read the lake at that very point and then SIGKILL it, as a crash would.
 * Only Node's fs is wrapped: the process runs the built CLI unchanged.
 */
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const pauseAfter = Number(process.env.LMS_TEST_PAUSE_AFTER_RENAME);
const rename = fs.promises.rename;
let renames = 0;
fs.promises.rename = async (from, to) => {
  await rename(from, to);
  renames += 1;
  if (renames === pauseAfter) process.kill(process.pid, "SIGSTOP");
};
// `import { rename } from "node:fs/promises"` in the CLI sees the wrapper too.
syncBuiltinESMExports();
