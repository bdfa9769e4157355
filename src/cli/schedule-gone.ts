/**
 * A run that `schedule` started has an IPC channel to it (spawn-run.ts). When the schedule dies
 * without stopping its run (SIGKILL, a crash), the channel closes: the run is told, and stops as
 * on SIGTERM. Left running with no schedule, a restarted schedule would start a second run beside
 * it. Node has no parent-death signal; the channel's end is what the kernel reports at once. A
 * command started any other way has no channel, or one another program holds (a fork by pm2 or a
 * job runner, which may let it go to detach the command), and nothing here applies to it: the
 * schedule marks its runs (SCHEDULED_RUN_ENV).
 */
import { SCHEDULED_RUN_ENV } from "../schedule/spawn-run.js";

/**
 * Calls `onGone` once the process that started this one through an IPC channel is gone; answers
 * how to stop watching. Contract: does nothing without a channel or without the schedule's mark
 * in `env`; calls `onGone` at once when the
 * channel closed before the watch began (the schedule died while this run was loading).
 */
export function watchScheduleGone(
  onGone: () => void,
  env: Readonly<Record<string, string | undefined>> = process.env,
): () => void {
  if (process.channel === undefined || env[SCHEDULED_RUN_ENV] !== "1") return () => {};
  let called = false;
  const gone = () => {
    if (called) return;
    called = true;
    onGone();
  };
  // The listener keeps the channel, and so the process, alive: it goes when the command ends.
  process.on("disconnect", gone);
  if (!process.connected) gone();
  return () => {
    process.off("disconnect", gone);
  };
}
