/**
 * A report read from a database whose `_runs` shows an extract `running` when its process has
 * ended (killed, crashed; see src/load/run-process.ts) warns of it: the freshness report's
 * `last_attempt_status` would otherwise say an extract is in progress, for as long as no other
 * extract starts. The rows are not wrong (a run that never merged changed none), so a warning.
 */
import { processEnded, type RunProcess } from "../load/run-process.js";
import { tableColumns, tableExists } from "../load/table-columns.js";
import type { Logger } from "../log/logger.js";
import type { ReportSource } from "../report/report-source.js";

/** The `running` runs whose recorded process has ended: their ids, processes and portals. */
async function stoppedRuns(
  source: ReportSource,
): Promise<{ runId: number; pid: number; portal: string | undefined }[]> {
  const connection = await source.connect();
  try {
    // A lake's or an older database's _runs may have no options to read.
    if (!(await tableExists(connection, "_runs"))) return [];
    if (!(await tableColumns(connection, "_runs")).includes("options")) return [];
    const portal = source.portals ? "portal" : "NULL";
    const reader = await connection.runAndReadAll(
      `SELECT run_id, json_extract(options, '$.process')::VARCHAR, ${portal} FROM _runs
       WHERE status = 'running' AND json_extract(options, '$.process') IS NOT NULL ORDER BY ALL`,
    );
    return reader.getRowsJS().flatMap(([runId, text, name]) => {
      const recorded = JSON.parse(String(text)) as RunProcess;
      if (!processEnded(recorded)) return [];
      const portal = name === null ? undefined : String(name);
      return [{ runId: Number(runId), pid: recorded.pid, portal }];
    });
  } finally {
    connection.closeSync();
  }
}

/** Warns once per run of `source` recorded as running whose process has ended. */
export async function warnStoppedRuns(source: ReportSource, logger: Logger): Promise<void> {
  for (const { runId, pid, portal } of await stoppedRuns(source)) {
    const where = portal === undefined ? "" : `portal ${portal}: `;
    const resume =
      portal === undefined ? "extract --resume" : `extract --portal ${portal} --resume`;
    logger.warn(
      `${where}extract run ${runId} is recorded as running, but its process (PID ${pid}) has ended without recording an outcome (killed or crashed); the reports hold what the run before it loaded. "lms-export ${resume}" continues it`,
    );
  }
}
