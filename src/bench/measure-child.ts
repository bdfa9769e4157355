/**
 * A bench case run in a process of its own, so that its peak RSS is its own: the parent forks
 * `script` with `args`; the child does its work and calls `reportToParent` with its figures, to
 * which its peak RSS is added.
 */
import { fork } from "node:child_process";

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
