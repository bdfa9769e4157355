/**
 * A bench case run in a process of its own, so that its peak RSS is its own: the parent forks
 * `script` with `args`; the child does its work and calls `reportToParent` with its figures, to
 * which its peak RSS is added.
 */
import { fork } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Forks `script` with `args` and answers what the child reported, with its peak RSS in MB. */
export function measureInChild<T extends object>(
  script: string,
  args: readonly string[],
): Promise<T & { peakRssMb: number }> {
  return new Promise((done, fail) => {
    const child = fork(script, [...args], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.once("message", (message) => {
      const { maxRssKb, ...rest } = message as T & { maxRssKb: number };
      done({ ...(rest as T), peakRssMb: maxRssKb / 1024 });
    });
    child.once("error", fail);
    child.once("exit", (code) => {
      if (code !== 0) fail(new Error(`bench case ${args.join(" ")} exited with ${code}`));
    });
  });
}

/** Sends `figures` and the process's peak RSS (resourceUsage().maxRSS, in KB) to the parent. */
export function reportToParent(figures: object): void {
  process.send?.({ ...figures, maxRssKb: process.resourceUsage().maxRSS });
  process.disconnect?.();
}

/**
 * The run of median time among `runs` of one case, with the highest peak RSS of them all: on a
 * shared machine one slow run must not decide a ratio, and memory is bounded by the worst.
 */
export function medianRun<T extends { seconds: number; peakRssMb: number }>(runs: readonly T[]): T {
  const sorted = [...runs].sort((x, y) => x.seconds - y.seconds);
  const median = sorted[Math.floor(sorted.length / 2)] as T;
  return { ...median, peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)) };
}

/**
 * Whether the module at `moduleUrl` is the script this process started with; when it is and its
 * first argument is `--case`, `runCase` gets the case's arguments and its figures go to the parent.
 * Answers true when the module was started as a case (the caller then does nothing else).
 */
export async function runIfCase(
  moduleUrl: string,
  runCase: (args: string[]) => Promise<object>,
): Promise<{ main: boolean; case: boolean }> {
  const main =
    process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(moduleUrl);
  if (!main || process.argv[2] !== "--case") return { main, case: false };
  reportToParent(await runCase(process.argv.slice(3)));
  return { main, case: true };
}

/**
 * Measures each of `names` `repeat` times, round after round (so a slow spell of a shared machine
 * touches every case alike), and answers each case's medianRun, in the order of `names`.
 */
export async function medianOfRounds<
  N extends string,
  T extends { seconds: number; peakRssMb: number },
>(names: readonly N[], repeat: number, measure: (name: N) => Promise<T>): Promise<T[]> {
  const runs = new Map<N, T[]>(names.map((name) => [name, []]));
  for (let round = 0; round < Math.max(1, repeat); round++) {
    for (const name of names) runs.get(name)?.push(await measure(name));
  }
  return names.map((name) => medianRun(runs.get(name) ?? []));
}

/**
 * The tail of a bench module: started as a case (runIfCase), it runs `runCase`; started as the
 * script itself, `alone`, its bench with the command line's figures; imported, nothing.
 */
export async function benchModule(
  moduleUrl: string,
  runCase: (args: string[]) => Promise<object>,
  alone: () => Promise<unknown>,
): Promise<void> {
  const started = await runIfCase(moduleUrl, runCase);
  if (started.main && !started.case) await alone();
}
