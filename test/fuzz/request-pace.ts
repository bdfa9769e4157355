/**
 * `--rate R` promises at most R request starts per second, evenly spaced (src/api/limiter.ts).
 * The simulator counts each request as it arrives; the harness notes the moment of each count, per
 * run (a resumed run is another client with its own spacing), and checks that no second of
 * arrivals holds more than R plus a small burst: a request or two at a run's start, and what
 * a stall of this process's event loop (shared by the simulator and the run) bunches together.
 */
import type { SimulatorStats } from "../../src/simulator/portal-state.js";

/** A stall of the shared event loop the check forgives, in seconds of requests. */
const STALL_SECONDS = 0.1;

export interface ArrivalLog {
  /** Arrivals from now on belong to a new run. */
  nextRun(): void;
  /** Each run's worst second, as a break line when it holds more than `rate` allows. */
  breaks(rate: number): string[];
  /** Stops noting arrivals. */
  stop(): void;
}

export function noteArrivals(stats: SimulatorStats): ArrivalLog {
  const runs: number[][] = [[]];
  let count = stats.requests;
  Object.defineProperty(stats, "requests", {
    configurable: true,
    enumerable: true,
    get: () => count,
    set: (value: number) => {
      if (value > count) runs[runs.length - 1]?.push(performance.now());
      count = value;
    },
  });
  return {
    nextRun: () => {
      runs.push([]);
    },
    breaks: (rate) => runs.flatMap((times, run) => worstSecond(times, rate, run)),
    stop: () => {
      Object.defineProperty(stats, "requests", {
        configurable: true,
        enumerable: true,
        writable: true,
        value: count,
      });
    },
  };
}

function worstSecond(times: readonly number[], rate: number, run: number): string[] {
  let worst = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while ((times[to] as number) - (times[from] as number) >= 1000) from += 1;
    worst = Math.max(worst, to - from + 1);
  }
  const allowed = Math.ceil(rate) + 2 + Math.ceil(rate * STALL_SECONDS);
  if (worst <= allowed) return [];
  return [
    `--rate ${rate}: run ${run + 1} sent ${worst} requests within one second (allowed ${allowed})`,
  ];
}
