/**
 * Which process is making a run, recorded in `_runs.options` (`process`) when the run starts or
 * resumes, so that a reader can tell a run still going from one whose process was killed (kill -9,
 * a crash, the machine turned off): both are `running` in `_runs` until the next extract marks the
 * dead one superseded, and a freshness report would show an extract in progress for days.
 *
 * Only this machine's processes can be looked at: a run recorded by another host (a database on
 * shared storage) is taken as alive. A process id is reused once its process has ended, so the
 * process's start time is recorded and compared too (Linux's /proc; elsewhere the id alone).
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

/** The process making a run, as recorded. */
export interface RunProcess {
  readonly pid: number;
  readonly host: string;
  /** When the process started, in milliseconds since the epoch. */
  readonly startedMs: number;
}

/** This process. */
export function currentProcess(): RunProcess {
  return {
    pid: process.pid,
    host: hostname(),
    startedMs: Math.round(Date.now() - process.uptime() * 1000),
  };
}

/** Linux counts a process's start in clock ticks since boot, 100 a second on every platform it runs. */
const TICKS_PER_SECOND = 100;
/** The two clocks disagree by a tick or two and by how long the process took to reach its code. */
const START_TOLERANCE_MS = 10_000;

/**
 * Whether the recorded process has ended. False whenever that cannot be known: another host's,
 * or a process that exists but cannot be signalled (another user's).
 */
export function processEnded(recorded: RunProcess): boolean {
  if (recorded.host !== hostname()) return false;
  try {
    process.kill(recorded.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  const started = linuxStartMs(recorded.pid);
  return started !== undefined && Math.abs(started - recorded.startedMs) > START_TOLERANCE_MS;
}

/** When process `pid` started, from /proc; undefined where there is no /proc. */
function linuxStartMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[19]);
    const boot = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1];
    if (boot === undefined || !Number.isFinite(ticks)) return undefined;
    return Number(boot) * 1000 + (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
