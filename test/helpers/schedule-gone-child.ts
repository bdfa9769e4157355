/**
 * A process forked with a channel that watches for its schedule as a run does, and writes into
 * the file its argument names "gone" when the watch fired, then "disconnected" from its own
 * listener, registered after the watch's. (A file, not stdout: the TypeScript loader's helper
 * process keeps a stdout pipe open past this one's exit.)
 */
import { appendFileSync } from "node:fs";
import { watchScheduleGone } from "../../src/cli/schedule-gone.js";

const file = process.argv[2] ?? "";
watchScheduleGone(() => appendFileSync(file, "gone\n"));
process.on("disconnect", () => {
  appendFileSync(file, "disconnected\n");
  process.exit(0);
});
process.send?.("ready");
