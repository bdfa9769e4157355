/**
 * When a process started, read from Linux's /proc: after a reboot, or long after a run was
 * killed, its PID may belong to another process, which must not be taken for the run. Undefined
 * where /proc does not say (another system, a process gone): the caller then trusts the PID alone.
 */
import { readFileSync } from "node:fs";

/**
 * Clock ticks per second of /proc's times (USER_HZ): 100 on every Linux architecture in use,
 * whatever the kernel's own tick rate (`getconf CLK_TCK`).
 */
const TICKS_PER_SECOND = 100;

/** The machine's boot time, seconds since the epoch (the `btime` line of /proc/stat). */
function bootSeconds(): number | undefined {
  const stat = readFileSync("/proc/stat", "latin1");
  const match = /^btime (\d+)$/m.exec(stat);
  return match ? Number(match[1]) : undefined;
}

/** When process `pid` started, in ms since the epoch; undefined when /proc does not tell. */
export function processStartMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // The command name, in parentheses, may hold spaces and parentheses: fields follow the last.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Field 22 of proc(5), starttime; the third field after the name is field 3.
    const ticks = Number(fields[19]);
    const boot = bootSeconds();
    if (boot === undefined || !Number.isFinite(ticks)) return undefined;
    return (boot + ticks / TICKS_PER_SECOND) * 1000;
  } catch {
    return undefined;
  }
}
