/**
 * Moves staged rows from the side file (side-file.ts) into the resource tables in ONE
 * transaction, so that a failure (or a kill) at any point leaves every resource table exactly as
 * it was before. The connection's default database is the database; the side file is named
 * through `side`. The staged rows are left in place: DuckDB writes one database per transaction,
 * so the side file is emptied after the merge commits.
 *
 * Per resource the staged rows are first reduced to one per primary key, the copy with the highest
 * `_seq` (the latest fetched). Deduplicating before writing matters: DuckDB's INSERT OR REPLACE
 * keeps an arbitrary copy when one statement carries a key twice, and upserting a key twice in one
 * transaction is where DuckDB's index constraint checks have historically been over-eager.
 * - full: the resource table is first replaced by a new one filled with the staged rows (see
 *   replaceWithStaged), which works when the staged keys are distinct, the usual case. A repeated
 *   key (a resumed run, or records re-read after offset drift) makes its insert fail on the
 *   primary key; the transaction is then rolled back and the merge done again the careful way:
 *   rows whose key was not staged are
 *   deleted (records gone from the portal), then the deduplicated staged rows are upserted. The
 *   deleted and upserted key sets are disjoint, which avoids the delete-then-reinsert-same-key
 *   pattern DuckDB's ART index has had trouble with.
 * - incremental: the staged rows are upserted; nothing is deleted (the API has no deletion feed).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { EXTRACTED, type ExtractedName, RESOURCES } from "../resources/registry.js";
import { createTableSql, EXTRA_COLUMN, quoteIdent } from "./ddl.js";
import { inSide } from "./side-file.js";
import { SEQ_COLUMN, stagingTable } from "./staging.js";

/** Extra steps of a merge. */
export interface MergeOptions {
  /**
   * Runs inside the merge transaction after the data statements and before COMMIT (e.g. marking
   * the run succeeded), so it commits or rolls back together with the data. Use only the given
   * connection.
   */
  beforeCommit?: (connection: DuckDBConnection) => Promise<void>;
  /**
   * A full merge keeps the rows whose keys this run's `_rejects` hold: a record the portal still
   * has but that could not be typed is not "gone".
   */
  keepRejectedOf?: number;
  /**
   * The run whose merge this is, when the database's rows came from the same portal (another
   * portal's are replaced): a row `apply` rewrote since that run began and holds in a later
   * version than the staged copy is left (see keepNewer).
   */
  keepAppliedDuring?: number;
}

function dedupedSql(resource: ExtractedName, stage: string, columns: string): string {
  const key = quoteIdent(RESOURCES[resource].primaryKey);
  return `SELECT ${columns} FROM ${stage} QUALIFY row_number() OVER (PARTITION BY ${key} ORDER BY ${quoteIdent(SEQ_COLUMN)} DESC) = 1`;
}

/** The quoted identifiers a merge of `resource` uses. */
function sqlNames(resource: ExtractedName, side: string, keepAppliedDuring: number | undefined) {
  const spec = RESOURCES[resource];
  const key = quoteIdent(spec.primaryKey);
  const names = [...spec.fields.map((f) => f.name), EXTRA_COLUMN];
  return {
    spec,
    side,
    table: quoteIdent(resource),
    stage: inSide(side, stagingTable(resource)),
    key,
    columns: names.map(quoteIdent).join(", "),
    nonKey: names.filter((name) => name !== spec.primaryKey).map(quoteIdent),
    // See keepNewer.
    laterApplied:
      keepAppliedDuring !== undefined && "edit" in spec.endpoints && spec.updatedField
        ? laterAppliedSql(resource, key, quoteIdent(spec.updatedField), keepAppliedDuring)
        : undefined,
    // See keepCreatedSql.
    createdDuring:
      keepAppliedDuring !== undefined && "create" in spec.endpoints
        ? (t: string) =>
            `EXISTS (SELECT 1 FROM _changes c WHERE c.op = '${resource}.create' AND ${ANSWERED} AND c.record_id = ${t}.${key} AND c."time" >= ${runStartSql(keepAppliedDuring)})`
        : undefined,
  };
}

/**
 * The `_changes` rows (as `c`) that say the portal answered the record: sent and `applied`, or a
 * link a create found the portal already had (`unchanged`, `answered`). A row found unchanged in
 * the database, nothing sent, says nothing of the portal. Rows written before `answered` was
 * recorded (meta-ddl.ts) count by the outcome alone.
 */
const ANSWERED = "(c.outcome = 'applied' OR c.answered)";

/** The start of run `runId` (this machine's clock), as `_changes` times are. */
function runStartSql(runId: number): string {
  return `(SELECT started_at FROM _runs WHERE run_id = ${Math.trunc(runId)})`;
}

/**
 * The condition, on a stored row `t` and a staged one `s` of the same key, that keeps `t`: it is
 * later by the portal's own date, and `apply` wrote the portal's answer to it (op `<resource>.…`,
 * {@link ANSWERED}, in `_changes`, whose time and the run's `started_at` are both this machine's
 * clock) after the run began; a row apply found `unchanged` was not written by it. A stored row
 * later than the portal's answer with no such apply is not the portal's any more (a portal
 * restored from a backup, a record's date set back): the portal's copy wins, as in any full run.
 */
function laterAppliedSql(resource: string, key: string, updated: string, runId: number) {
  return (t: string, s: string) =>
    `${t}.${updated} > ${s}.${updated} AND EXISTS (SELECT 1 FROM _changes c WHERE starts_with(c.op, '${resource}.') AND ${ANSWERED} AND c.record_id = ${t}.${key} AND c."time" >= ${runStartSql(runId)})`;
}

/**
 * `staged` (a SELECT of the staged rows) without those whose record `apply` rewrote in the
 * database during the run. `apply` writes the portal's answer to an edit into the database at
 * once; an extract paging while it ran, or resumed after it, staged the record as it was before,
 * and merging that copy would put the old values back: the database would disagree with the
 * portal until the next extract, and an `apply` of the old values (an undo) would find them
 * "unchanged" and send nothing. The portal's own `*_updated_date` tells which copy is later; only
 * the resources `apply` edits are concerned, and a record with no date is taken as staged.
 */
function keepNewer(names: ReturnType<typeof sqlNames>, staged: string): string {
  const { table, key, laterApplied } = names;
  if (laterApplied === undefined) return staged;
  return `SELECT * FROM (${staged}) AS s WHERE NOT EXISTS (SELECT 1 FROM ${table} AS t WHERE t.${key} = s.${key} AND ${laterApplied("t", "s")})`;
}

/** After a table was replaced by the staged rows, puts back the rows keepNewer keeps, from `old`. */
function restoreNewerSql(names: ReturnType<typeof sqlNames>, old: string): string[] {
  const { table, key, laterApplied, nonKey } = names;
  if (laterApplied === undefined) return [];
  const set = nonKey.map((column) => `${column} = o.${column}`).join(", ");
  return [
    `UPDATE ${table} SET ${set} FROM ${old} AS o WHERE ${table}.${key} = o.${key} AND ${laterApplied("o", table)}`,
  ];
}

/**
 * After a table was replaced by the staged rows, puts back from `old` the records `apply` created
 * during the run that the run did not stage: it listed them before they existed, and a full merge
 * would delete them as gone from the portal although the portal just confirmed them. Only those
 * `_changes` shows the portal answered to a create ({@link ANSWERED}: made, or found there by the
 * check before it; not found unchanged in the database, which the portal may not hold) after
 * the run began are kept: a record deleted from the portal later
 * is gone at the next full run, as any other.
 */
function keepCreatedSql(names: ReturnType<typeof sqlNames>, old: string): string[] {
  const { table, key, columns, createdDuring } = names;
  if (createdDuring === undefined) return [];
  return [
    `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM ${old} AS o WHERE NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.${key} = o.${key}) AND ${createdDuring("o")}`,
  ];
}

async function mergeOne(
  connection: DuckDBConnection,
  names: ReturnType<typeof sqlNames>,
  resource: ExtractedName,
  mode: "full" | "incremental" | "replace",
  keepRejectedOf: number | undefined,
): Promise<void> {
  if (mode === "replace") return replaceWithStaged(connection, names, resource, keepRejectedOf);
  const { spec, side, table, stage, key, columns } = names;
  const probe = await connection.runAndReadAll(
    `SELECT EXISTS (SELECT 1 FROM ${table}), count(*) = count(DISTINCT ${key}) FROM ${stage}`,
  );
  const [filled, distinct] = probe.getRows()[0] ?? [true, false];
  // Without repeated keys the rows stream in as they are; the window that picks the latest copy
  // of a key holds the whole staged set in memory.
  const staged = keepNewer(
    names,
    distinct === true ? `SELECT ${columns} FROM ${stage}` : dedupedSql(resource, stage, columns),
  );
  if (mode === "full" && distinct === true)
    return replaceWithStaged(connection, names, resource, keepRejectedOf);
  if (filled !== true) {
    // A first load: nothing to delete or replace, and a plain insert skips the key lookups.
    await connection.run(`INSERT INTO ${table} (${columns}) ${staged}`);
  } else {
    if (mode === "full") {
      const rejected =
        keepRejectedOf === undefined
          ? ""
          : ` AND ${table}.${key} NOT IN (${rejectedKeysSql(side)})`;
      // As keepCreatedSql keeps them in a replaced table.
      const created = names.createdDuring ? ` AND NOT ${names.createdDuring(table)}` : "";
      await connection.run(
        `DELETE FROM ${table} WHERE NOT EXISTS (SELECT 1 FROM ${stage} s WHERE s.${key} = ${table}.${key})${rejected}${created}`,
        keepRejectedOf === undefined
          ? {}
          : { path: `$.${spec.primaryKey}`, run: keepRejectedOf, resource },
      );
    }
    await connection.run(`INSERT OR REPLACE INTO ${table} (${columns}) ${staged}`);
  }
}

/** The resources with `_rejects` rows in the run (none without a run): only they need keeping. */
async function resourcesWithRejects(
  connection: DuckDBConnection,
  side: string,
  runId: number | undefined,
): Promise<Set<string>> {
  if (runId === undefined) return new Set();
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT resource FROM ${inSide(side, "_rejects")} WHERE run_id = $run::BIGINT`,
    { run: runId },
  );
  return new Set(reader.getRows().map(([resource]) => String(resource)));
}

/**
 * The `_rejects` keys of a run and resource (in the side file), as a subquery taking $path, $run
 * and $resource.
 */
function rejectedKeysSql(side: string): string {
  return `SELECT TRY_CAST(json_extract_string(raw, $path) AS BIGINT) AS k FROM ${inSide(side, "_rejects")} WHERE run_id = $run::BIGINT AND resource = $resource AND k IS NOT NULL`;
}

/**
 * A full merge whose staged keys are all distinct: the resource table is replaced by a new one
 * filled with the staged rows, plus the rows of records this run rejected (carried over from the
 * old table, which is renamed aside and dropped at the end). Inserting into an empty table skips
 * the key lookups of deleting and upserting every row, which makes a full run's merge several
 * times cheaper in time and memory. Inside the merge's transaction like every other step.
 */
async function replaceWithStaged(
  connection: DuckDBConnection,
  names: ReturnType<typeof sqlNames>,
  resource: ExtractedName,
  keepRejectedOf: number | undefined,
): Promise<void> {
  const { spec, side, table, stage, key, columns } = names;
  const old = quoteIdent(`${resource}__replaced`);
  // The new table has its key and NOT NULL constraints before the rows go in: DuckDB checks
  // them as the rows are inserted, where a key added afterwards to the transaction's own rows is
  // checked only at COMMIT (and NOT NULL not at all).
  const drop = `DROP TABLE ${old}`;
  const replace = [
    `ALTER TABLE ${table} RENAME TO ${old}`,
    createTableSql(resource, { ifNotExists: false }),
    `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM ${stage}`,
    ...restoreNewerSql(names, old),
    ...keepCreatedSql(names, old),
  ];
  // Without rejects to carry over, the old table is dropped in the same call (one round trip less
  // per table); the carrying over takes parameters, which a multi-statement call cannot.
  if (keepRejectedOf === undefined) {
    await connection.run([...replace, drop].join(";\n"));
    return;
  }
  await connection.run(replace.join(";\n"));
  await connection.run(
    `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM ${old} WHERE ${key} IN (${rejectedKeysSql(side)}) AND NOT EXISTS (SELECT 1 FROM ${stage} s WHERE s.${key} = ${old}.${key})`,
    { path: `$.${spec.primaryKey}`, run: keepRejectedOf, resource },
  );
  await connection.run(drop);
}

/** Row count of every extracted resource table. */
export async function tableCounts(
  connection: DuckDBConnection,
): Promise<Record<ExtractedName, number>> {
  const sql = EXTRACTED.map(
    (name) => `SELECT '${name}' AS name, count(*) AS n FROM ${quoteIdent(name)}`,
  ).join(" UNION ALL ");
  const reader = await connection.runAndReadAll(sql);
  const found = new Map(reader.getRows().map(([name, n]) => [String(name), Number(n)]));
  const counts: Partial<Record<ExtractedName, number>> = {};
  for (const name of EXTRACTED) counts[name] = found.get(name) ?? 0;
  // Every key was just filled.
  return counts as Record<ExtractedName, number>;
}

/** Runs `work` in one transaction: committed whole, or rolled back and the error rethrown. */
export async function inTransaction(
  connection: DuckDBConnection,
  work: () => Promise<void>,
): Promise<void> {
  await connection.run("BEGIN TRANSACTION");
  try {
    await work();
    await connection.run("COMMIT");
  } catch (error) {
    // A failed COMMIT has already ended the transaction; the ROLLBACK error is not the news.
    await connection.run("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * Merges the staging tables of `resources` into their resource tables and empties them, all in
 * one transaction (rolled back on any error, the error rethrown). Full mode makes each table
 * exactly its staged set, so pass only resources whose extraction completed. Close or flush every
 * staging writer first: rows still in an appender are not seen. Answers the row count of every
 * extracted resource table after the merge.
 */
export async function mergeStaging(
  connection: DuckDBConnection,
  side: string,
  resources: readonly ExtractedName[],
  mode: "full" | "incremental",
  options: MergeOptions = {},
): Promise<Record<ExtractedName, number>> {
  const unique = [...new Set(resources)];
  const rejected = await resourcesWithRejects(connection, side, options.keepRejectedOf);
  let dataMerged = false;
  const attempt = (how: "full" | "incremental" | "replace") =>
    inTransaction(connection, async () => {
      for (const resource of unique) {
        const keep = rejected.has(resource) ? options.keepRejectedOf : undefined;
        const names = sqlNames(resource, side, options.keepAppliedDuring);
        await mergeOne(connection, names, resource, how, keep);
      }
      dataMerged = true;
      await options.beforeCommit?.(connection);
    });
  if (mode === "full") {
    // Replacing first skips the check for repeated keys, whose hash table of every staged key
    // costs more memory than the rest of the merge; the new table's primary key makes the same
    // check anyway.
    try {
      await attempt("replace");
      return await tableCounts(connection);
    } catch (error) {
      // Only a failed data step is retried: beforeCommit and COMMIT are not run twice.
      if (dataMerged) throw error;
    }
  }
  await attempt(mode);
  return tableCounts(connection);
}
