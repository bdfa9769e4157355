/**
 * Only a run the schedule started stops when its channel ends: a program that forks lms-export
 * with a channel and lets it go (pm2, a job runner detaching) does not stop it. A real child
 * process with a real channel; the parent lets the channel go once the child watches it.
 */
import { fork } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCHEDULED_RUN_ENV } from "../../src/schedule/spawn-run.js";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const helpers = join(PROJECT_ROOT, "test", "helpers");
const dir = tempDirForFile("lms-schedule-gone-");

let runs = 0;

/** What the child wrote once its parent let the channel go, with `env` as its environment. */
async function afterDisconnect(env: Record<string, string | undefined>): Promise<string> {
  const file = join(dir, `child-${++runs}.txt`);
  await writeFile(file, "");
  const child = fork(join(helpers, "schedule-gone-child.ts"), [file], {
    execArgv: ["--import", join(helpers, "register-ts.mjs")],
    env,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  await new Promise((resolve) => child.once("message", resolve));
  child.disconnect();
  await exited;
  return readFile(file, "utf8");
}

describe("a channel's end", () => {
  it("stops a run the schedule marked, and not one another program forked", async () => {
    const { [SCHEDULED_RUN_ENV]: _, ...env } = process.env;
    expect(await afterDisconnect(env)).toBe("disconnected\n");
    expect(await afterDisconnect({ ...env, [SCHEDULED_RUN_ENV]: "1" })).toBe(
      "gone\ndisconnected\n",
    );
  });
});
