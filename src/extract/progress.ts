/**
 * Live counters of an extract run, per resource: requests done and planned, records stored.
 * Renderers (terminal bars, log lines) read snapshots; the extractor only counts.
 */
import type { PaceFigures } from "../api/client.js";
import type { ExtractedName } from "../resources/registry.js";

export interface ResourceProgress {
  readonly resource: ExtractedName;
  readonly requestsDone: number;
  /** Grows while parents page: fan-out work is only known as ids arrive. */
  readonly requestsPlanned: number;
  readonly records: number;
  readonly startedAt: number;
  readonly finishedAt: number | undefined;
}

interface Counter {
  requestsDone: number;
  requestsPlanned: number;
  records: number;
  startedAt: number;
  finishedAt: number | undefined;
}

export type ProgressListener = (event: "finish", progress: ResourceProgress) => void;

export class Progress {
  private readonly counters = new Map<ExtractedName, Counter>();
  private readonly listeners: ProgressListener[] = [];
  private paceSource: (() => PaceFigures) | undefined;

  constructor(
    resources: readonly ExtractedName[],
    private readonly now: () => number = Date.now,
  ) {
    const start = now();
    for (const resource of resources) {
      this.counters.set(resource, {
        requestsDone: 0,
        requestsPlanned: 0,
        records: 0,
        startedAt: start,
        finishedAt: undefined,
      });
    }
  }

  /** Where the client's pace (requests in flight, latency) is read from. */
  watchPace(source: () => PaceFigures): void {
    this.paceSource = source;
  }

  /** The client's pace now; undefined when none is watched. */
  pace(): PaceFigures | undefined {
    return this.paceSource?.();
  }

  onFinish(listener: ProgressListener): void {
    this.listeners.push(listener);
  }

  /** Raises the planned request count to at least `total`. */
  planAtLeast(resource: ExtractedName, total: number): void {
    const counter = this.counter(resource);
    counter.requestsPlanned = Math.max(counter.requestsPlanned, total, counter.requestsDone);
  }

  plan(resource: ExtractedName, more: number): void {
    this.counter(resource).requestsPlanned += more;
  }

  requested(resource: ExtractedName, count = 1): void {
    const counter = this.counter(resource);
    counter.requestsDone += count;
    counter.requestsPlanned = Math.max(counter.requestsPlanned, counter.requestsDone);
  }

  /** Records received from the portal (stored once their batch is written). */
  received(resource: ExtractedName, records: number): void {
    this.counter(resource).records += records;
  }

  finish(resource: ExtractedName): void {
    const counter = this.counter(resource);
    if (counter.finishedAt !== undefined) return;
    counter.finishedAt = this.now();
    const snapshot = this.snapshotOf(resource, counter);
    for (const listener of this.listeners) listener("finish", snapshot);
  }

  snapshot(): ResourceProgress[] {
    return [...this.counters].map(([resource, counter]) => this.snapshotOf(resource, counter));
  }

  private snapshotOf(resource: ExtractedName, counter: Counter): ResourceProgress {
    return { resource, ...counter };
  }

  private counter(resource: ExtractedName): Counter {
    const counter = this.counters.get(resource);
    if (!counter) throw new Error(`progress: resource ${resource} is not part of this run`);
    return counter;
  }
}
