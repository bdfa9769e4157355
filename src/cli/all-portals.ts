/**
 * `--all-portals`: a command run once for each portal of the config file's `portals`, a few at
 * once. Each portal's failure is its own: the others run to the end, the summary names every
 * portal with its outcome, and the exit code is 1 when any failed.
 */

import { Writable } from "node:stream";
import pLimit from "p-limit";
import { resolveConfig } from "../config/resolve.js";
import { errorText } from "../errors/error-text.js";
import { isInterruption, LmsExportError } from "../errors/lms-export-error.js";
import { streamIsTTY } from "../log/color.js";
import { writeLogLine } from "../log/log-line-output.js";
import type { CliContext } from "./context.js";
import { writeStderrLine } from "./stderr-line.js";

function resolveFor(flags: Readonly<Record<string, unknown>>, ctx: CliContext) {
  return resolveConfig({ flags, env: ctx.env, cwd: ctx.cwd, isTTY: streamIsTTY(ctx.stderr) });
}

/**
 * The config file's portal names and how many run at once (the `portalsAtOnce` setting); a
 * bad-input error when the file names no portal.
 */
export async function configuredPortals(
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
): Promise<{ names: string[]; atOnce: number; configFile: string }> {
  const config = await resolveFor({ ...flags, portal: undefined }, ctx);
  if (config.portals.length === 0 || config.configFile === undefined) {
    const where = config.configFile ?? "no config file was found";
    throw new LmsExportError(
      "bad-input",
      `--all-portals needs "portals" in the config file (${where}), e.g. {"portals": {"acme": {"baseUrl": "...", "apiKeyFile": "..."}}}`,
    );
  }
  return { names: config.portals, atOnce: config.portalsAtOnce, configFile: config.configFile };
}

/**
 * `--all-portals` takes each portal's address and database from its entry: a --db or --base-url
 * beside it would name one for every portal, so it is refused rather than ignored.
 */
export function refuseAllPortalsTargets(flags: Readonly<Record<string, unknown>>): void {
  if (flags.db !== undefined || flags.baseUrl !== undefined) {
    throw new LmsExportError(
      "bad-input",
      "--all-portals takes each portal's address and database from the config file: leave out --db and --base-url",
    );
  }
}

/**
 * `run` over every portal would give each portal's reports one output folder, the same file names
 * and one mail: refused with the two steps that do it.
 */
export function refuseRunAllPortals(flags: Readonly<Record<string, unknown>>): void {
  if (flags.allPortals === true) {
    throw new LmsExportError(
      "bad-input",
      "run does not take --all-portals: run `lms-export extract --all-portals`, then `lms-export report NAME --all-portals` (one report over every portal), or `lms-export run NAME --portal P` for each portal",
    );
  }
}

/**
 * A bad-input error unless `name` is a portal of the config file. `allPortals`: whether the
 * command also takes --all-portals, for the advice (run does not).
 */
export async function requireConfiguredPortal(
  name: string,
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  allPortals = true,
): Promise<void> {
  const every = allPortals ? " (or --all-portals for every portal)" : "";
  // yargs answers a repeated --portal as a list, which would be shown joined ("acme,globex").
  const given: unknown = name;
  if (Array.isArray(given)) {
    throw new LmsExportError(
      "bad-input",
      `--portal takes one name, and was given ${given.length} (${given.join(", ")}): pass one${every}`,
    );
  }
  const config = await resolveFor(flags, ctx);
  if (config.portal === undefined) {
    if (name === "") {
      const known = config.portals.length > 0 ? `: ${config.portals.join(", ")}` : "";
      throw new LmsExportError(
        "bad-input",
        `--portal needs a name, one of the portals under "portals" in the config file${known}${every}`,
      );
    }
    if (config.configFile === undefined) {
      throw new LmsExportError(
        "not-found",
        `--portal ${name} names a portal of the config file, and no config file was found: write lms-export.config.json here (or pass --config FILE or set LMS_CONFIG) with {"portals": {"${name}": {"baseUrl": "...", "apiKeyFile": "..."}}}`,
      );
    }
    const known = config.portals.length > 0 ? config.portals.join(", ") : "none";
    throw new LmsExportError(
      "not-found",
      `--portal ${name} is not under "portals" in the config file (${config.configFile}; portals: ${known})`,
    );
  }
}

/**
 * The streams of one portal's run: its output is kept and printed whole when it ends, so portals
 * running at once do not interleave their lines; its log goes on to stderr, each line naming the
 * portal, but not as a terminal (live progress bars of portals running at once would overwrite
 * each other).
 */
function portalStreams(ctx: CliContext): { stdout: Writable; stderr: Writable; text(): string } {
  let text = "";
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  const stderr = new Writable({
    write(chunk, _encoding, done) {
      // As every log line: one that cannot be written is dropped, and does not stop the run.
      writeLogLine(ctx.stderr, String(chunk));
      done();
    },
  });
  return { stdout, stderr, text: () => text };
}

/**
 * Runs `each` for every portal, at most `atOnce` at a time; prints one summary line per portal
 * and throws an error naming the failed ones. A portal whose `each` answers a text has it on its
 * summary line instead of "done" (one that had nothing left to do says why).
 */
export async function forEachPortal(
  names: readonly string[],
  atOnce: number,
  ctx: CliContext,
  each: (portal: string, portalCtx: CliContext) => Promise<unknown>,
): Promise<void> {
  const limit = pLimit(Math.max(1, atOnce));
  const outcomes = await Promise.all(
    names.map((name) =>
      limit(async () => {
        const streams = portalStreams(ctx);
        try {
          const { stdout, stderr } = streams;
          const done = await each(name, { ...ctx, stdout, stderr, logPortal: name });
          const line = typeof done === "string" ? done : "done";
          return { name, done: line, error: undefined, stopped: false };
        } catch (error) {
          const message = errorText(error);
          return { name, done: "", error: message, stopped: isInterruption(error) };
        } finally {
          const text = streams.text();
          if (text !== "") ctx.stdout.write(`== portal ${name}\n${text}`);
        }
      }),
    ),
  );
  const lines = outcomes.map(
    (o) =>
      `portal ${o.name}: ${o.error === undefined ? o.done : `${o.stopped ? "stopped" : "failed"}: ${o.error}`}`,
  );
  ctx.stdout.write(`${lines.join("\n")}\n`);
  // In a JSON log each failure is a record too (text keeps it to the lines above and the error).
  for (const o of outcomes) {
    if (ctx.stderrFormat?.json !== true || o.error === undefined || o.stopped) continue;
    writeStderrLine(ctx, "error", `portal ${o.name} failed: ${o.error}`, { portal: o.name });
  }
  const failed = outcomes.filter((o) => o.error !== undefined && !o.stopped).map((o) => o.name);
  const stopped = outcomes.filter((o) => o.stopped).map((o) => o.name);
  if (failed.length > 0) {
    const also = stopped.length > 0 ? `; stopped: ${stopped.join(", ")}` : "";
    throw new LmsExportError(
      "failed",
      `${failed.length} of ${names.length} portals failed: ${failed.join(", ")}${also}`,
    );
  }
  // Ctrl-C or a stop signal: the portals it cut short were stopped, not failed.
  if (stopped.length > 0) {
    throw new LmsExportError(
      "interrupted",
      `${stopped.length} of ${names.length} portals stopped before the end: ${stopped.join(", ")} (see each one's line above)`,
    );
  }
}

/** Each portal of `names` (the config file's, from configuredPortals) with the path of its database. */
export async function portalDatabases(
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  names: readonly string[],
): Promise<{ name: string; db: string }[]> {
  const out: { name: string; db: string }[] = [];
  for (const name of names) {
    const config = await resolveFor({ ...flags, portal: name, db: undefined }, ctx);
    out.push({ name, db: config.db });
  }
  return out;
}
