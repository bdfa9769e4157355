/**
 * A database holds one portal's records. A run against another address may replace them all (a
 * full run of every resource, which says so), but not add to them: resuming a run of another
 * address, an incremental run, or a full run of only some resources would leave two portals'
 * records side by side in the tables, and every report would count both as one. The address is
 * the one each run recorded in `_runs.options`; an address is the same whatever the host's case
 * or a trailing slash.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { sameAddress } from "../config/same-address.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { loadedFromElsewhere, runAddress } from "../load/run-address.js";
import type { Logger } from "../log/logger.js";
import type { ExtractedName } from "../resources/registry.js";
import { EXTRACTED } from "../resources/registry.js";

/**
 * Contract: throws bad input before anything is written when `decision` would mix the records of
 * the request's address with another's; warns when a full run of every resource will replace them
 * if it succeeds.
 */
export async function checkSamePortal(
  connection: DuckDBConnection,
  decision: {
    readonly resumeId: number | undefined;
    readonly mode: "full" | "incremental";
    readonly resources: readonly ExtractedName[];
  },
  request: {
    readonly runOptions?: Readonly<Record<string, unknown>>;
    readonly logger: Logger;
    readonly portalChangeExpected?: boolean;
  },
): Promise<void> {
  const address = request.runOptions?.baseUrl;
  if (typeof address !== "string") return;
  if (decision.resumeId !== undefined) {
    const resumed = await runAddress(connection, decision.resumeId);
    if (resumed === undefined || sameAddress(resumed, address)) return;
    throw new LmsExportError(
      "bad-input",
      `run ${decision.resumeId} was extracted from ${resumed}, not ${address}: resuming it would mix two portals' records; run without --resume to start over from ${address}, or resume with --base-url ${resumed}`,
    );
  }
  const last = await loadedFromElsewhere(connection, address);
  if (last === undefined) return;
  const whole =
    decision.mode === "full" && EXTRACTED.every((name) => decision.resources.includes(name));
  if (whole) {
    if (request.portalChangeExpected === true) return;
    // Said before the portal has answered: the run may still fail, and a failed run changes nothing.
    request.logger.warn(
      `the database holds the records of ${last.address} (run ${last.runId}); if this full run succeeds, it replaces them with those of ${address}`,
    );
    return;
  }
  const what =
    decision.mode === "incremental" ? "an incremental run" : "a run of only some resources";
  throw new LmsExportError(
    "bad-input",
    `the database holds the records of ${last.address} (run ${last.runId}), not ${address}: ${what} would mix two portals' records; give this portal its own --db, or run a full extract of every resource to replace them`,
  );
}
