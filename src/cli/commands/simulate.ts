/**
 * `lms-export simulate`: runs the simulated LMS portal until interrupted, for trying the
 * extractor without a real portal. The base URL is the first line of stdout, so a script that
 * starts it in the background can read the address before anything else.
 */
import type { Argv, Options } from "yargs";
import { LmsExportError } from "../../errors/lms-export-error.js";
import { DIALECT_NAMES } from "../../simulator/dialect.js";
import { type FaultConfig, MISSING_ID_ANSWERS } from "../../simulator/faults.js";
import {
  DEFAULT_API_KEY,
  type SimulatorOptions,
  startOfTodayUtc,
  startSimulator,
} from "../../simulator/server.js";
import type { CommandArgs } from "../command-args.js";
import type { CliContext } from "../context.js";

/** Checks one numeric flag; a one-line bad-input error names the flag and what it expects. */
function checked(
  flag: string,
  value: number | undefined,
  rule: { integer?: boolean; min: number; max?: number },
): number | undefined {
  if (value === undefined) return undefined;
  const range = rule.max === undefined ? `>= ${rule.min}` : `between ${rule.min} and ${rule.max}`;
  const expected = `${rule.integer ? "an integer" : "a number"} ${range}`;
  const ok =
    Number.isFinite(value) &&
    (!rule.integer || Number.isInteger(value)) &&
    value >= rule.min &&
    (rule.max === undefined || value <= rule.max);
  if (!ok)
    throw new LmsExportError("bad-input", `--${flag} must be ${expected}, got ${String(value)}`);
  return value;
}

const rate = (flag: string, value: number | undefined) => checked(flag, value, { min: 0, max: 1 });
const count = (flag: string, value: number | undefined) =>
  checked(flag, value, { integer: true, min: 0 });

function parseNow(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) {
    throw new LmsExportError(
      "bad-input",
      `--now must be an ISO 8601 date, e.g. 2026-01-31, got ${text}`,
    );
  }
  return new Date(ms);
}

/** Resolves when the signal aborts (at once if it already has). */
function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener("abort", () => resolve(), { once: true }),
  );
}

function listenError(error: unknown, host: string, port: number): LmsExportError {
  const code = (error as { code?: unknown }).code;
  const where = `${host}:${port}`;
  if (code === "EADDRINUSE") {
    return new LmsExportError(
      "failed",
      `cannot listen on ${where}: the port is in use; pass --port 0 for any free port`,
    );
  }
  if (code === "EACCES") {
    return new LmsExportError(
      "failed",
      `cannot listen on ${where}: permission denied; choose a port above 1023`,
    );
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
    return new LmsExportError(
      "failed",
      `cannot listen on ${where}: no such local address; check --host`,
    );
  }
  return new LmsExportError("failed", `cannot start the simulator on ${where}: ${String(error)}`, {
    cause: error,
  });
}

function describeFaults(faults: Readonly<FaultConfig>): string {
  const on = Object.entries(faults).filter(
    ([name, value]) => name !== "retryAfterSeconds" && (value === true || Number(value) > 0),
  );
  return on.length === 0 ? "none" : on.map(([name, value]) => `${name}=${value}`).join(", ");
}

function describeCapacity(capacity: number | undefined): string {
  return capacity ? `serving ${capacity} requests at once, ${2 * capacity} queued; ` : "";
}

/** The flags of `simulate`, in the order its help lists them. */
const SIMULATE_OPTIONS = {
  port: { type: "number", default: 0, description: "Port (0 = any free port)" },
  host: {
    type: "string",
    default: "127.0.0.1",
    description: "Address to listen on",
  },
  seed: {
    type: "number",
    default: 1,
    description: "Same seed and --now, same data",
  },
  now: {
    type: "string",
    description: "Reference date of the data (default: today 00:00 UTC)",
  },
  users: { type: "number", default: 1000, description: "Number of users" },
  "takes-per-user": {
    type: "number",
    default: 20,
    description: "Average takes per user",
  },
  "deleted-products": {
    type: "number",
    default: 1,
    description: "Product ids referenced but answering 404",
  },
  "max-limit": {
    type: "number",
    default: 1000,
    description: "Silent cap on `limit`",
  },
  "api-key": {
    type: "string",
    default: DEFAULT_API_KEY,
    description: "The key /token accepts (a test server: a flag is fine here)",
  },
  "token-ttl": {
    type: "number",
    default: 3600,
    description: "Token lifetime, seconds",
  },
  "token-max-requests": {
    type: "number",
    default: 0,
    description: "A token expires after N requests (0 = never)",
  },
  latency: {
    type: "number",
    default: 0,
    description: "Added latency per request, ms",
  },
  capacity: {
    type: "number",
    default: 0,
    description:
      "Requests served at once; twice as many wait, more get 429 Retry-After: 1 (with --dialect other: 200 {status:false, code:429, retry_after:1}) (0 = no limit)",
  },
  jitter: { type: "number", default: 0, description: "Plus random 0..N ms" },
  "error-rate": { type: "number", default: 0, description: "Share answered 500/503" },
  "rate-limit-rate": {
    type: "number",
    default: 0,
    description: "Share answered 429",
  },
  "retry-after": {
    type: "number",
    default: 1,
    description: "Retry-After of a 429, seconds",
  },
  "reset-rate": {
    type: "number",
    default: 0,
    description: "Share cut off mid-response",
  },
  "malformed-rate": {
    type: "number",
    default: 0,
    description: "Share answered 200 with broken JSON or an HTML page",
  },
  "status-false-rate": {
    type: "number",
    default: 0,
    description: "Share answered 200 {status:false}",
  },
  dialect: {
    choices: DIALECT_NAMES,
    default: "standard",
    description:
      "How the spec's open points are answered: standard, or other (Bearer only, failures as 200 {status:false}, numbers as strings, mixed date formats)",
  },
  "write-then-drop-rate": {
    type: "number",
    default: 0,
    description: "Share of writes applied, then the connection dropped without an answer",
  },
  "insert-while-paging": {
    type: "number",
    default: 0,
    description: "New records inserted before each list page after the first",
  },
  "delete-while-paging": {
    type: "number",
    default: 0,
    description: "Random records removed before each list page after the first",
  },
  "unstable-order": {
    type: "boolean",
    default: false,
    description: "Each list request sees the records in a new random order",
  },
  "criteria-or": {
    type: "boolean",
    default: false,
    description: "Several criteria of a list request select what matches any of them (OR)",
  },
  "missing-id-answer": {
    choices: MISSING_ID_ANSWERS,
    default: "not-found",
    description:
      "How a read of an unknown id is answered: not-found (404), or 200 with a null, [], {}, false or empty result",
  },
  "refuse-limit-above": {
    type: "number",
    default: 0,
    description: "Answer 400 to a list page asking for more than N records (0: never)",
  },
} as const satisfies Record<string, Options>;

/** The usage line, the flags and the examples `simulate --help` shows. */
function simulateBuilder(y: Argv) {
  return y
    .usage(
      "$0 simulate [options]\n\nPrints the base URL on the first line, then serves until Ctrl-C.",
    )
    .options(SIMULATE_OPTIONS)
    .example("$0 simulate", "1,000 users on a free port, no faults")
    .example(
      "$0 simulate --users 50000 --seed 7",
      "a bigger portal; its base URL is the first line of output",
    )
    .example(
      "$0 simulate --latency 40 --jitter 20 --error-rate 0.02 --rate-limit-rate 0.01 --reset-rate 0.005",
      "a slow, flaky portal to test retries",
    )
    .example(
      "$0 simulate --dialect other",
      "a portal that reads the spec's open points the other way",
    )
    .example(
      "$0 simulate --capacity 8 --latency 20",
      "a portal that serves 8 requests at once, queues 16 and refuses the rest",
    )
    .example(
      "$0 simulate --token-max-requests 100 --insert-while-paging 2",
      "tokens that expire, data that moves",
    )
    .example(
      "$0 simulate --unstable-order --insert-while-paging 1 --delete-while-paging 1",
      "a list whose order and content change while it is paged",
    );
}

type SimulateArgs = CommandArgs<typeof simulateBuilder>;

/** The simulator's settings from the flags; every bad value is a one-line bad-input error. */
function simulatorOptions(argv: SimulateArgs): SimulatorOptions & { host: string; port: number } {
  const port = checked("port", argv.port, { integer: true, min: 0, max: 65_535 }) ?? 0;
  const host = argv.host;
  if (host.trim() === "")
    throw new LmsExportError("bad-input", "--host must be an address, e.g. 127.0.0.1");
  const apiKey = argv.apiKey;
  if (apiKey === "") throw new LmsExportError("bad-input", "--api-key must not be empty");
  return {
    host,
    port,
    apiKey,
    seed: checked("seed", argv.seed, { integer: true, min: 0, max: 0xffff_ffff }),
    now: parseNow(argv.now) ?? startOfTodayUtc(),
    users: count("users", argv.users),
    takesPerUser: checked("takes-per-user", argv.takesPerUser, { min: 0 }),
    deletedProducts: count("deleted-products", argv.deletedProducts),
    maxLimit: checked("max-limit", argv.maxLimit, { integer: true, min: 1 }),
    dialect: argv.dialect,
    capacity: count("capacity", argv.capacity),
    tokenTtlMs: (checked("token-ttl", argv.tokenTtl, { min: 0 }) ?? 3600) * 1000,
    faults: faultOptions(argv),
  };
}

/** The faults the flags switch on, each checked like the other numeric flags. */
function faultOptions(argv: SimulateArgs): Partial<FaultConfig> {
  return {
    latencyMs: checked("latency", argv.latency, { min: 0 }),
    jitterMs: checked("jitter", argv.jitter, { min: 0 }),
    errorRate: rate("error-rate", argv.errorRate),
    rateLimitRate: rate("rate-limit-rate", argv.rateLimitRate),
    retryAfterSeconds: count("retry-after", argv.retryAfter),
    resetRate: rate("reset-rate", argv.resetRate),
    malformedRate: rate("malformed-rate", argv.malformedRate),
    statusFalseRate: rate("status-false-rate", argv.statusFalseRate),
    writeThenDropRate: rate("write-then-drop-rate", argv.writeThenDropRate),
    tokenMaxRequests: count("token-max-requests", argv.tokenMaxRequests),
    insertWhilePaging: count("insert-while-paging", argv.insertWhilePaging),
    deleteWhilePaging: count("delete-while-paging", argv.deleteWhilePaging),
    unstableOrder: argv.unstableOrder,
    criteriaAnyOf: argv.criteriaOr,
    missingIdAnswer: argv.missingIdAnswer,
    refuseLimitAbove: count("refuse-limit-above", argv.refuseLimitAbove),
  };
}

/** Starts the simulator, prints where it is and what it serves, and serves until aborted. */
async function simulateHandler(argv: SimulateArgs, ctx: CliContext): Promise<void> {
  const options = simulatorOptions(argv);
  const running = await startSimulator(options).catch((error: unknown) => {
    throw listenError(error, options.host, options.port);
  });
  try {
    const { data } = running;
    ctx.stdout.write(`${running.baseUrl}\n`);
    ctx.stdout.write(
      `serving ${data.count("user")} users, ${data.count("take")} takes, ${data.count("grp")} groups, ` +
        `${data.count("product")} products (seed ${options.seed}, ${argv.dialect} dialect); ${describeCapacity(options.capacity)}faults: ${describeFaults(running.faults)}; ` +
        "stop with Ctrl-C\n",
    );
    await untilAborted(ctx.signal);
  } finally {
    await running.close();
  }
}

export function registerSimulate(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "simulate",
    "Run a simulated LMS portal (API v2) with generated data and optional faults",
    simulateBuilder,
    (argv) => simulateHandler(argv, ctx),
  );
}
