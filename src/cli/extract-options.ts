/**
 * The extract options and the extract step itself, shared by `extract` and `run` (which extracts,
 * then reports).
 */
import { resolve } from "node:path";
import type { Argv } from "yargs";
import { readApiKey } from "../config/api-key.js";
import { commaEntries } from "../config/comma-entries.js";
import { DEFAULT_LOOKBACK_MS } from "../config/defaults.js";
import { requireBaseUrl } from "../config/portal-address.js";
import type { ResolvedConfig } from "../config/resolve.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { type ExtractResult, runExtract } from "../extract/extract.js";
import { selectResources } from "../extract/plan.js";
import type { LmsDatabase } from "../load/database.js";
import { streamIsTTY } from "../log/color.js";
import type { Logger } from "../log/logger.js";
import { EXTRACTED } from "../resources/registry.js";
import type { CliContext } from "./context.js";
import { portalClientOptions } from "./portal-client-options.js";
import { logProgress, renderTerminalProgress } from "./progress-render.js";

const EXTRACT = "Extract:";

/** --full | --incremental | --since ISO, --resume, --only LIST, --lookback MINUTES. */
export function withExtractOptions<T>(y: Argv<T>) {
  return y
    .option("full", {
      type: "boolean",
      group: EXTRACT,
      description: "Reload everything and remove records that are gone (default)",
    })
    .option("incremental", {
      type: "boolean",
      group: EXTRACT,
      description: "Only records updated since the last successful run (minus --lookback)",
    })
    .option("since", {
      type: "string",
      group: EXTRACT,
      description: "Only records updated after this ISO 8601 time (implies --incremental)",
    })
    .option("lookback", {
      type: "number",
      group: EXTRACT,
      description: `Minutes before the last run's start an incremental run looks back (default ${DEFAULT_LOOKBACK_MS / 60_000}; env LMS_LOOKBACK)`,
    })
    .option("allow-empty", {
      type: "boolean",
      group: EXTRACT,
      description: "Let a full run empty a table when the portal now answers no records for it",
    })
    .option("resume", {
      type: "boolean",
      group: EXTRACT,
      description: "Continue the interrupted run without fetching finished work again",
    })
    .option("only", {
      type: "string",
      group: EXTRACT,
      description: "Comma-separated resources to extract (default: all)",
      // Empty entries are kept for checkExtractFlags to refuse: `grp,,take` is a typo.
      coerce: (value: unknown) =>
        (Array.isArray(value) ? value : [value])
          .flatMap((part) => String(part).split(","))
          .map((part) => part.trim()),
    })
    .conflicts("full", ["incremental", "since"]);
}

export interface ExtractFlags {
  full?: boolean | undefined;
  incremental?: boolean | undefined;
  since?: string | undefined;
  resume?: boolean | undefined;
  allowEmpty?: boolean | undefined;
  only?: string[] | undefined;
  /** Only the flag: LMS_LOOKBACK and the config file's "lookback" serve every kind of run. */
  lookback?: number | undefined;
}

function parseSince(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  // A date alone or a time with a zone: a bare local time would mean different instants on
  // different machines.
  const ok = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(
    value,
  );
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  // Date() rolls 2026-02-31 over to March 3rd; the calendar day written must exist.
  const [year, month, day] = value.slice(0, 10).split("-").map(Number);
  const real = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1));
  const exists = real.getUTCMonth() === (month ?? 1) - 1 && real.getUTCDate() === day;
  if (!ok || !exists || Number.isNaN(date.getTime())) {
    throw new LmsExportError(
      "bad-input",
      `--since: "${value}" is not an ISO 8601 date or date-time with a zone; use e.g. 2026-01-31 or 2026-01-31T08:00:00Z`,
    );
  }
  // A day not come yet (a mistyped year) would list nothing and succeed, as if nothing changed.
  if (date.getTime() > Date.now()) {
    throw new LmsExportError(
      "bad-input",
      `--since: ${value} is in the future, so nothing would be listed; give a past day or time`,
    );
  }
  return date;
}

/**
 * Refuses a bad --since or --only before anything starts: `--all-portals` checks them before its
 * batch is recorded, as a batch that every portal refuses is not one to resume.
 */
export function checkExtractFlags(flags: ExtractFlags): void {
  parseSince(flags.since);
  refuseIdleLookback(flags);
  if (flags.only === undefined) return;
  const only = commaEntries(flags.only, "--only", `choose from ${EXTRACTED.join(", ")}`);
  // `--only=` or `--only ","` names nothing, which would read as no --only: every resource.
  if (only.length === 0) {
    throw new LmsExportError(
      "bad-input",
      `--only needs at least one resource: ${EXTRACTED.join(", ")}`,
    );
  }
  selectResources(only);
}

/**
 * --lookback moves only an --incremental run's start back from the last run's. Given to a full
 * run, or with --since (which names the start itself), it would change nothing, and a user who
 * typed it believes it did.
 */
function refuseIdleLookback(flags: ExtractFlags): void {
  if (flags.lookback === undefined) return;
  if (flags.since !== undefined) {
    throw new LmsExportError(
      "bad-input",
      "--lookback does nothing with --since, which gives the start itself: drop --lookback, or move --since back",
    );
  }
  if (flags.incremental !== true) {
    throw new LmsExportError(
      "bad-input",
      "--lookback only moves the start of an --incremental run back from the last run's; a full run reads everything: add --incremental, or drop --lookback",
    );
  }
}

/** Progress bars on a terminal, else progress lines in the log. */
function showProgress(
  progress: Parameters<typeof logProgress>[0],
  quiet: boolean,
  ctx: CliContext,
  logger: Logger,
) {
  // The bars are drawn on stderr, so it is stderr that must be a terminal.
  if (!quiet && streamIsTTY(ctx.stderr)) return renderTerminalProgress(progress, ctx.stderr);
  logProgress(progress, logger);
  return { stop() {} };
}

/** Runs the extract step with resolved settings; the caller owns the database. */
export async function extractWith(options: {
  config: ResolvedConfig;
  flags: ExtractFlags;
  /** A path (the CLI: the database stays readable during the run), or an open database. */
  db: string | LmsDatabase;
  /** --wait: seconds to wait for a database or side file another process holds. */
  waitSeconds?: number;
  ctx: CliContext;
  logger: Logger;
  apiKey?: string;
  /** The database is known to hold another address's records (the demo's, on a new port). */
  portalChangeExpected?: boolean;
  /** The demo's own run: recorded as such, so a later demo knows the database is its own. */
  madeByDemo?: boolean;
}): Promise<ExtractResult> {
  const { config, flags, ctx, logger } = options;
  const baseUrl = requireBaseUrl(config);
  const since = parseSince(flags.since);
  const apiKey =
    options.apiKey ?? (await readApiKey(config, ctx.env, { logger, signal: ctx.signal }));
  return runExtract({
    db: options.db,
    ...(options.portalChangeExpected === true ? { portalChangeExpected: true } : {}),
    ...(config.duckdbMemoryLimit !== undefined ? { memoryLimit: config.duckdbMemoryLimit } : {}),
    ...(options.waitSeconds !== undefined ? { waitSeconds: options.waitSeconds } : {}),
    clientOptions: {
      ...portalClientOptions(config, { baseUrl, apiKey }, ctx.env, logger),
      pageSize: config.pageSize,
    },
    mode: flags.incremental || since ? "incremental" : "full",
    ...(since ? { since } : {}),
    lookbackMs: config.lookbackMs,
    resume: flags.resume === true,
    allowEmpty: flags.allowEmpty === true,
    ...(flags.only ? { only: flags.only } : {}),
    logger,
    signal: ctx.signal,
    showProgress: (progress) => showProgress(progress, config.quiet, ctx, logger),
    runOptions: {
      ...(options.madeByDemo === true ? { demo: true } : {}),
      baseUrl,
      concurrency: config.concurrency,
      maxConcurrency: config.maxConcurrency,
      rate: config.rate ?? null,
      authScheme: config.authScheme,
      db: resolve(config.db),
    },
  });
}

function paceRange(pace: ExtractResult["pace"]): string {
  return pace.min === pace.max
    ? String(pace.final)
    : `${pace.min} to ${pace.max}, ${pace.final} at the end`;
}

/** The end-of-run summary printed on stdout. */
export function extractSummary(result: ExtractResult, seconds: number): string {
  const lines = [
    `run ${result.runId} (${result.mode}${result.since ? ` since ${result.since.toISOString()}` : ""}) finished in ${seconds.toFixed(1)} s: ${result.requests} requests, ${result.retries} retries`,
    `  requests in flight ${paceRange(result.pace)}, ${result.pace.overloads} too-busy answers (429/503)`,
  ];
  for (const [resource, outcome] of result.resources) {
    const table = result.tables[resource];
    const extras = [
      outcome.rejects > 0 ? `${outcome.rejects} rejected (see _rejects)` : "",
      outcome.notFound > 0 ? `${outcome.notFound} not found (see _not_found)` : "",
    ].filter(Boolean);
    lines.push(
      `  ${resource.padEnd(19)} ${String(outcome.records).padStart(9)} fetched${table !== undefined ? `, ${table} in table` : ""}${extras.length ? `, ${extras.join(", ")}` : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
