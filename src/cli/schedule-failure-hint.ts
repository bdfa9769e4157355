/**
 * The hint of a scheduled run that failed. The command after `--` was checked when the schedule
 * started, so a run refused later as bad input (exit code 2) is refused for something each run
 * reads anew: its config file, edited while the schedule runs, or its own input (a database, a
 * file, the portal's answer to the key). The run's own error line says what is wrong and what to
 * do, and needs no hint; when the config file is what fails, the hint names it, as the file every
 * later run reads, so that nobody looks for the fault in the command after `--`.
 */
import { loadConfigFile } from "../config/config-file.js";
import { configFilePath } from "../config/resolve.js";
import type { RunOutcome } from "../schedule/scheduler.js";
import type { CliContext } from "./context.js";
import type { CheckCommandLine } from "./scheduled-command.js";

/** The failure hint of the runs of `args`, started in `ctx` (the runs' environment and folder). */
export function scheduleFailureHint(
  args: readonly string[],
  ctx: CliContext,
  checkCommandLine: CheckCommandLine,
): (outcome: RunOutcome) => Promise<string | undefined> {
  return async (outcome) => {
    if (outcome.exitCode !== 2) return undefined;
    // The run's own --config wins over the schedule's (LMS_CONFIG in its environment).
    const flags = await checkCommandLine(args, ctx);
    const path = configFilePath({ flags, env: ctx.env, cwd: ctx.cwd });
    if (path === undefined) return undefined;
    try {
      await loadConfigFile(path);
      return undefined;
    } catch {
      return `fix the config file ${path}, which every run reads (the run's error line says what is wrong)`;
    }
  };
}
