/**
 * `apply`: a file of changes checked whole, compared with the local database, shown, and sent
 * row by row with every outcome recorded. The steps are split so the command can ask for
 * confirmation between the plan and the sending.
 */
import type { ClientOptions } from "../api/client.js";
import { createClient } from "../api/client.js";
import type { LmsDatabase } from "../load/database.js";
import { appliedLines, type ChangeSetRef, changeSetId, startChangeSet } from "./changes-table.js";
import { executePlan, type RowResult } from "./execute.js";
import { readLocalState } from "./local-state.js";
import { type ApplyOp, type OpSpec, opSpec } from "./ops.js";
import {
  adminMismatches,
  countPlan,
  type PlanCounts,
  type PlannedRow,
  planChanges,
} from "./plan.js";
import { ChangeFileError } from "./problems.js";
import { type ChangeFile, readChangeFile } from "./read-changes.js";
import { writeResults } from "./results-csv.js";

export interface ApplyPlan {
  readonly spec: OpSpec;
  readonly file: ChangeFile;
  readonly ref: ChangeSetRef;
  readonly plan: readonly PlannedRow[];
  readonly counts: PlanCounts;
  /** Referenced ids the local database does not know (warnings unless strict). */
  readonly unknown: readonly string[];
  /** What the file asks for that cannot be done and is left as it is (warnings). */
  readonly notes: readonly string[];
}

/**
 * Reads and checks the file at `path` and compares it with the database. Throws TabularError or
 * ChangeFileError for a file that cannot be applied (and, with `strict`, for unknown ids).
 */
export async function planApply(
  db: LmsDatabase,
  path: string,
  op: ApplyOp,
  options: { strict: boolean },
): Promise<ApplyPlan> {
  const spec = opSpec(op);
  const file = await readChangeFile(path, spec);
  const connection = await db.connect();
  try {
    const local = await readLocalState(connection, spec, file.rows, file.unit);
    if (options.strict && local.unknown.length > 0) {
      const shown = local.unknown.slice(0, 20).join("; ");
      const more = local.unknown.length > 20 ? `; and ${local.unknown.length - 20} more` : "";
      throw new ChangeFileError(
        `${file.file}: ${local.unknown.length} ids not in the local database (--strict), nothing was sent: ${shown}${more}. Run extract first, or fix the ids`,
      );
    }
    const ref = { id: changeSetId(file.sha256, op), file: file.file, op };
    const done = await appliedLines(connection, ref.id);
    const plan = planChanges(spec, file.rows, local, done);
    const notes = spec.kind === "create" ? adminMismatches(plan, file.unit) : [];
    return { spec, file, ref, plan, counts: countPlan(plan), unknown: local.unknown, notes };
  } finally {
    connection.closeSync();
  }
}

export interface ApplyOutcome {
  readonly results: ReadonlyMap<number, RowResult>;
  readonly resultsFile: string;
  readonly applied: number;
  readonly unchanged: number;
  readonly failed: readonly number[];
  readonly skipped: number;
}

/** Sends the plan's changes, records every outcome, writes the results file beside `path`. */
export async function executeApply(
  db: LmsDatabase,
  path: string,
  planned: ApplyPlan,
  options: {
    clientOptions: ClientOptions;
    concurrency: number;
    signal?: AbortSignal | undefined;
    onProgress?: (done: number, failed: number, total: number) => void;
  },
): Promise<ApplyOutcome> {
  const connection = await db.connect();
  const client = createClient({ ...options.clientOptions, signal: options.signal });
  let results: Map<number, RowResult>;
  try {
    const startedBefore = await startChangeSet(connection, planned.ref, planned.file.rows.length);
    results = await executePlan({
      client,
      connection,
      spec: planned.spec,
      ref: planned.ref,
      plan: planned.plan,
      concurrency: options.concurrency,
      checkFirst: startedBefore,
      signal: options.signal,
      onProgress: options.onProgress,
    });
  } finally {
    await client.close().catch(() => undefined);
    connection.closeSync();
  }
  const resultsFile = await writeResults(path, planned.file, results);
  const lines = (outcome: RowResult["outcome"]) =>
    [...results].filter(([, r]) => r.outcome === outcome).map(([line]) => line);
  return {
    results,
    resultsFile,
    applied: lines("applied").length,
    unchanged: lines("unchanged").length,
    failed: lines("failed").sort((a, b) => a - b),
    skipped: lines("skipped").length,
  };
}
