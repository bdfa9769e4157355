/**
 * One benchmark case in a fresh process, so that its peak RSS is its own and no warm cache of an
 * earlier case helps it. The script forks itself with `--case NAME ...args`, runs the case and
 * reports with {@link reportCase}; the parent keeps the median time of several runs.
 */
import { fork } from "node:child_process";

export interface MeasuredCase<N extends string = string> {
  name: N;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssMb: number;
}

/** Forks `script` with `--case name ...args` and answers what the child reported. */
export function measureInChild<N extends string>(
  script: string,
  name: N,
  args: readonly string[],
): Promise<MeasuredCase<N>> {
  return new Promise((done, fail) => {
    const child = fork(script, ["--case", name, ...args], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child.once("message", (message) => {
      const { seconds, rows, maxRssKb } = message as {
        seconds: number;
        rows: number;
        maxRssKb: number;
      };
      done({ name, rows, seconds, rowsPerSecond: rows / seconds, peakRssMb: maxRssKb / 1024 });
    });
    child.once("error", fail);
    child.once("exit", (code) => {
      if (code !== 0) fail(new Error(`bench case ${name} exited with ${code}`));
    });
  });
}

/** In the child: sends the case's time and rows with the process's peak RSS, then lets go. */
export function reportCase(result: { seconds: number; rows: number }): void {
  process.send?.({ ...result, maxRssKb: process.resourceUsage().maxRSS });
  process.disconnect?.();
}

/**
 * The run of median time among `runs` of one case, with the highest peak RSS of them all: the
 * machine may be shared, and one slow run must not decide a ratio, while memory is a ceiling.
 */
export function medianCase<N extends string>(runs: readonly MeasuredCase<N>[]): MeasuredCase<N> {
  const sorted = [...runs].sort((x, y) => x.seconds - y.seconds);
  const median = sorted[Math.floor(sorted.length / 2)] as MeasuredCase<N>;
  return { ...median, peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)) };
}

/**
 * Runs every case of `cases` `repeat` times, each in a fresh process (rounds interleave the cases,
 * so a slow spell of the machine falls on all of them), and answers each case's
 * {@link medianCase}, in the order of `cases`.
 */
export async function medianOfRounds<N extends string>(
  script: string,
  cases: readonly N[],
  repeat: number,
  args: (round: number) => readonly string[],
): Promise<MeasuredCase<N>[]> {
  const runs = new Map<N, MeasuredCase<N>[]>(cases.map((name) => [name, []]));
  for (let round = 0; round < Math.max(1, repeat); round++) {
    for (const name of cases) {
      runs.get(name)?.push(await measureInChild(script, name, args(round)));
    }
  }
  return cases.map((name) => medianCase(runs.get(name) ?? []));
}
