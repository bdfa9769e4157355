/**
 * One extract run: lists paged concurrently, fan-out children started as their parents' ids
 * arrive, everything staged and checkpointed as it goes, then one transaction that merges the
 * staged records into the resource tables and marks the run succeeded.
 *
 * A run that fails or is interrupted leaves the resource tables as they were and its staged work
 * and checkpoints in place, so `--resume` continues it.
 */
import type { Criterion } from "../api/types.js";
// The checkpoint of a list whose every page is staged.
import { LISTED_KEY as LISTED } from "../load/unfinished-listings.js";
import type { ExtractedName } from "../resources/registry.js";
import { RESOURCES } from "../resources/registry.js";
import { stillPresent } from "./confirm-gone.js";
import { FanoutQueue } from "./fanout-queue.js";
import type { ExtractEnvironment, FetchOutcome, FetchPlan, ResourceOutcome } from "./fetch-plan.js";
import { ListingTally } from "./listing-tally.js";
import { HoldBudget, ParentChildren } from "./parent-children.js";
import {
  extractionOf,
  FANOUT,
  FANOUT_ORDER,
  type FanoutName,
  idFrom,
  isList,
  isPerParent,
  type ListName,
  type LookupName,
  type PerParentName,
  sourcesFrom,
  storedParentIds,
} from "./plan.js";
import { Progress } from "./progress.js";
import type { RecordSink } from "./sink.js";

export type {
  ExtractEnvironment,
  ExtractPlan,
  FetchOutcome,
  FetchPlan,
  ResourceOutcome,
} from "./fetch-plan.js";

/** Keys per lookup of stored records a full run's listing did not deliver. */
const CONFIRM_BATCH = 200;

/** The cursor criterion of an incremental run for one resource. */
function cursorCriteria(resource: ExtractedName, since: Date | undefined): Criterion[] {
  const field = RESOURCES[resource].updatedField;
  if (!since || !field) return [];
  // A portal dates records to the second: one changed in the second the cursor falls in, after
  // it, is dated before it. So the cursor is sent as the second before its own, whether the
  // portal reads greater_than as > or as >= (at most two seconds read again).
  const second = Math.floor(since.getTime() / 1000) * 1000 - 1000;
  // ISO 8601 in UTC: the spec gives no format for criterion values; an instant with its zone is
  // the one reading a portal cannot take for another time.
  const value = new Date(second).toISOString().replace(".000Z", "Z");
  return [{ column: field, operator: "greater_than", value }];
}

/**
 * Fetches everything the plan names into its sinks. Resolves with per-resource outcomes once every
 * sink has been finished; rejects with the first failure after all work in flight has settled.
 */
export function fetchAll(plan: FetchPlan, env: ExtractEnvironment): Promise<FetchOutcome> {
  return new ExtractRun(plan, env).run();
}

/** The numeric keys of a done-set (ids). */
function numbers(keys: ReadonlySet<string>): Set<number> {
  return new Set([...keys].filter((key) => /^\d+$/.test(key)).map(Number));
}

/** One run's fetching: its fan-out queues, producers, outcomes and failures. */
class ExtractRun {
  private readonly progress: Progress;
  private readonly selected: ReadonlySet<ExtractedName>;
  private readonly outcomes = new Map<ExtractedName, ResourceOutcome>();
  private readonly queues = new Map<FanoutName, FanoutQueue>();
  // Each producer settles once; a child queue closes when every producer feeding it has finished.
  private readonly producers = new Map<ExtractedName, Promise<void>>();
  private readonly failures: unknown[] = [];
  private readonly started = Date.now();
  /** An incremental run's parents whose children are stored, per child (seedStored). */
  private readonly storedParents = new Map<FanoutName, ReadonlySet<number>>();
  /** What the child listings in flight may still hold (parent-children.ts). */
  private readonly held = new HoldBudget();

  constructor(
    private readonly plan: FetchPlan,
    private readonly env: ExtractEnvironment,
  ) {
    this.progress = env.progress ?? new Progress(plan.resources);
    this.selected = new Set(plan.resources);
    for (const resource of plan.resources) {
      this.outcomes.set(resource, {
        records: 0,
        rejects: 0,
        requests: 0,
        notFound: 0,
        durationMs: 0,
      });
    }
    // An adaptive pace is mostly far below the ceiling the workers are sized for: tasks beyond
    // twice its current limit would only wait in the limiter, each holding a promise chain and a
    // watch on the client's signal, which costs the client time in garbage collection.
    const workers = () => Math.min(env.workers, Math.max(2, 2 * env.client.pace().current));
    for (const child of FANOUT_ORDER) {
      if (!this.selected.has(child)) continue;
      const work = isPerParent(child)
        ? (id: number) => this.fetchChildren(child, id)
        : (id: number) => this.lookupOne(child, id);
      this.queues.set(child, new FanoutQueue(workers, work, numbers(this.doneOf(child))));
    }
  }

  async run(): Promise<FetchOutcome> {
    const { env } = this;
    const abort = () => env.controller.abort(env.signal?.reason);
    if (env.signal?.aborted) abort();
    env.signal?.addEventListener("abort", abort, { once: true });
    try {
      await this.seed();
      for (const resource of this.plan.resources) {
        if (isList(resource)) this.track(resource, this.pageList(resource));
      }
      this.startChildren();
      await Promise.allSettled(this.producers.values());
      if (this.failures.length > 0) {
        // Tasks still running when the first one failed are aborted; wait for them so nothing
        // writes to the database after the run reports its failure.
        await Promise.allSettled([...this.queues.values()].map((queue) => queue.settled()));
        await Promise.allSettled([...this.plan.sinks.values()].map((s) => s.abandon()));
        throw this.failures[0];
      }
      return { resources: this.outcomes, client: env.client.stats() };
    } finally {
      env.signal?.removeEventListener("abort", abort);
    }
  }

  private outcome(resource: ExtractedName): ResourceOutcome {
    return this.outcomes.get(resource)!;
  }

  private sink(resource: ExtractedName): RecordSink {
    const found = this.plan.sinks.get(resource);
    if (!found) throw new Error(`no sink for ${resource}`);
    return found;
  }

  private doneOf(resource: ExtractedName): ReadonlySet<string> {
    return this.plan.done.get(resource) ?? new Set<string>();
  }

  private criteria(resource: ExtractedName): Criterion[] {
    return cursorCriteria(resource, this.plan.cursors.get(resource));
  }

  /** One request answered with `records` records. */
  private counted(resource: ExtractedName, records: number): void {
    this.outcome(resource).requests += 1;
    this.progress.requested(resource);
    this.progress.received(resource, records);
  }

  private listingTally(resource: ExtractedName): ListingTally {
    return new ListingTally(resource, {
      logger: this.env.logger,
      countRequests: (extra) => {
        this.outcome(resource).requests += extra;
      },
    });
  }

  /** Pushes the ids that records of `parent` carry to the fan-out queues that take them. */
  private emit(parent: ExtractedName, records: readonly unknown[]): void {
    for (const { child, source } of sourcesFrom(parent)) {
      const queue = this.queues.get(child);
      if (!queue) continue;
      for (const record of records) {
        const id = idFrom(source, record as Record<string, unknown>);
        if (id !== undefined) queue.push(id);
      }
      this.progress.planAtLeast(child, queue.planned);
    }
  }

  /** Every page of one parent's children, staged as parent-children.ts says. */
  private async fetchChildren(resource: PerParentName, parentId: number): Promise<void> {
    const tally = this.listingTally(resource);
    const stored = this.storedParents.get(resource);
    // A parent none of whose children is stored is listed whole (seedStored).
    const criteria = stored === undefined || stored.has(parentId) ? this.criteria(resource) : [];
    const pages = this.env.client.childPages(resource, parentId, {
      criteria,
      pageSize: this.plan.pageSize,
      onSummary: tally.onSummary,
    });
    const extraction = RESOURCES[resource].extraction;
    const children = new ParentChildren(
      this.sink(resource),
      this.held,
      tally,
      {
        id: parentId,
        done: extraction.checkpoint,
        primaryKey: RESOURCES[resource].primaryKey,
        label: `${resource}: the records listed for ${extraction.parentField} ${parentId}`,
      },
      this.env.logger,
    );
    try {
      for await (const page of pages) {
        tally.page();
        this.counted(resource, page.records.length);
        this.emit(resource, page.records);
        await children.add(page.records);
      }
    } catch (error) {
      children.abandon();
      throw error;
    }
    await children.end();
  }

  /** One record by id; an id the portal does not know is recorded, not fatal. */
  private async lookupOne(resource: LookupName, id: number): Promise<void> {
    const record = await this.env.client.lookup(resource, id);
    this.counted(resource, record === null ? 0 : 1);
    const done = { kind: extractionOf(resource).checkpoint, keys: [String(id)] };
    if (record === null) {
      this.outcome(resource).notFound += 1;
      await this.env.onNotFound?.(resource, id);
      await this.sink(resource).add([], done);
      return;
    }
    this.emit(resource, [record]);
    await this.sink(resource).add([record], done);
  }

  /**
   * Pages a list, and marks it listed once every page is staged. A list is checkpointed whole or
   * not at all: offsets name the same records only while the list is unchanged, and a list that
   * moved between an interrupted attempt and its resumption (or while the attempt was being
   * checked for exactness) could hide records in the pages stored before. So a resumed run lists
   * again every list not marked listed, the pages its earlier attempts staged of it discarded
   * (unfinished-listings.ts); lists are a small share of a run's requests.
   */
  private async pageList(resource: ListName): Promise<void> {
    if (!this.doneOf(resource).has(LISTED)) {
      const tally = this.listingTally(resource);
      const pages = this.env.client.pages(resource, {
        criteria: this.criteria(resource),
        pageSize: this.plan.pageSize,
        onSummary: tally.onSummary,
      });
      for await (const page of pages) {
        tally.page();
        this.counted(resource, page.records.length);
        this.progress.planAtLeast(resource, Math.ceil(page.total / Math.max(1, page.limit)));
        this.emit(resource, page.records);
        await this.sink(resource).add(page.records);
      }
      await tally.dropVanished(this.sink(resource));
      await this.sink(resource).add([], {
        kind: extractionOf(resource).checkpoint,
        keys: [LISTED],
      });
    }
    if (this.plan.confirmGone) await this.keepWhatStillExists(resource);
  }

  /** A full run's rows the listing did not deliver are looked up before the merge may drop them. */
  private async keepWhatStillExists(resource: ListName): Promise<void> {
    const { env } = this;
    // Committed first, the staging table holds every record listed: what the table has beyond it
    // is what the listing did not deliver (no set of the listed keys kept in memory).
    await this.sink(resource).flush();
    const missing = await env.stored.unstaged(resource);
    if (missing.length === 0) return;
    const found = await stillPresent(env.client, resource, missing, CONFIRM_BATCH);
    env.logger.info(
      `${resource}: ${missing.length} stored records were not listed; the portal still has ${found.length} of them (kept), the others are gone`,
      { resource, missing: missing.length, kept: found.length },
    );
    this.emit(resource, found);
    await this.sink(resource).add(found);
  }

  /** Seeds fan-out queues with ids already in the database. */
  private async seed(): Promise<void> {
    const { env, plan, selected } = this;
    for (const [child, queue] of this.queues) {
      for (const source of FANOUT[child].sources) {
        const fromTable = !selected.has(source.parent) || plan.mode === "incremental";
        const ids = fromTable ? await env.stored.inTable(source) : [];
        if (!selected.has(source.parent) && ids.length === 0) {
          env.logger.warn(
            `${child}: the ${source.parent} table holds no ids to fetch ${child} for; extract ${source.parent} too`,
            { resource: child, parent: source.parent },
          );
        }
        if (plan.resuming && selected.has(source.parent)) {
          ids.push(...(await env.stored.inStaging(source)));
        }
        for (const id of ids) queue.push(id);
        this.progress.planAtLeast(child, queue.planned);
      }
      await this.seedStored(child);
    }
  }

  /**
   * An incremental run applies its cursor only to the parents whose children are stored: a user
   * new to the database (a link made since) has older takes the cursor would pass over for good.
   */
  private async seedStored(child: FanoutName): Promise<void> {
    const { env, plan } = this;
    if (plan.mode !== "incremental" || !isPerParent(child) || !plan.cursors.has(child)) return;
    this.storedParents.set(child, new Set(await env.stored.inTable(storedParentIds(child))));
  }

  /**
   * The ids a child's own stored rows were fetched for (a take's user, an availability group's
   * id), once its parents are listed. A full run fetches them too: a user who left every group
   * still has takes in the portal, an availability group no availability names any more is still
   * there, yet no list of this run names them, and the merge would drop what the portal holds (as
   * keepWhatStillExists confirms a list's rows, and at the same point: a new run's lists start
   * before its database is ready). The portal's answer decides: no takes, or not found, and they
   * are gone. In the usual run these ids are among those the lists named, and cost no request.
   */
  private async addStored(child: FanoutName, queue: FanoutQueue): Promise<void> {
    if (this.plan.mode !== "full" || !this.plan.confirmGone) return;
    for (const id of await this.env.stored.inTable(storedParentIds(child))) queue.push(id);
    this.progress.planAtLeast(child, queue.planned);
  }

  /** Children in dependency order, so each one's parents' promises already exist. */
  private startChildren(): void {
    for (const child of FANOUT_ORDER) {
      const queue = this.queues.get(child);
      if (!queue) continue;
      const parents = FANOUT[child].sources
        .map((source) => this.producers.get(source.parent))
        .filter((p): p is Promise<void> => p !== undefined);
      this.track(
        child,
        Promise.all(parents).then(
          async () => {
            await this.addStored(child, queue).finally(() => queue.close());
            return queue.done();
          },
          (error: unknown) => {
            queue.close();
            throw error;
          },
        ),
      );
    }
  }

  /**
   * A resource's sink commits its last records as soon as the resource is fetched, while the
   * others go on (the lists end long before the takes).
   */
  private async finishResource(resource: ExtractedName, work: Promise<void>): Promise<void> {
    await work;
    const totals = await this.sink(resource).finish();
    const outcome = this.outcome(resource);
    outcome.records = totals.records;
    outcome.rejects = totals.rejects;
    outcome.durationMs = Date.now() - this.started;
    this.progress.finish(resource);
  }

  private track(resource: ExtractedName, work: Promise<void>): void {
    const done = this.finishResource(resource, work).catch((error: unknown) => {
      this.failures.push(error);
      this.env.controller.abort(error);
      throw error;
    });
    done.catch(() => {});
    this.producers.set(resource, done);
  }
}
