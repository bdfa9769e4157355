import type { Argv } from "yargs";
import { checkPortalName } from "../../config/portal-name.js";
import { homeOf, settingPath } from "../../config/setting-path.js";
import { isInterruption, LmsExportError } from "../../errors/lms-export-error.js";
import type { LmsDatabase } from "../../load/database.js";
import { DEFAULT_MEMORY_LIMIT } from "../../load/memory-limit.js";
import type { Logger } from "../../log/logger.js";
import { NothingExtractedError } from "../../publish/extracted-once.js";
import { type PublishLakeResult, publishLake } from "../../publish/lake/publish-lake.js";
import { type PgSettings, pgSettings } from "../../publish/postgres/connection-settings.js";
import { checkSchemaName } from "../../publish/postgres/schema-name.js";
import { counted } from "../../text/counted.js";
import { configuredPortals, forEachPortal } from "../all-portals.js";
import type { CommandArgs } from "../command-args.js";
import { type SettingsHook, setupCommand, withDatabase } from "../command-setup.js";
import type { CliContext } from "../context.js";
import {
  batchNoticeTarget,
  FailureNotice,
  portalCommandName,
  withFailureNotice,
} from "../failure-notice-step.js";
import { withConfigOption, withDbOption, withLogOptions } from "../options.js";
import { withPortalOptions } from "../portal-options.js";
import { checkPublishTargets } from "../publish-targets.js";
import { unchosenPortalDatabase } from "../unchosen-portal-database.js";
import { withWaitOption } from "../wait-option.js";

const TARGET = "Where to:";

/** The targets (--lake, --postgres, --schema, --snapshot-date) and the portal and database. */
function publishBuilder(y: Argv) {
  return withPortalOptions(
    withWaitOption(withLogOptions(withDbOption(withConfigOption(y), DEFAULT_MEMORY_LIMIT))),
    `Portal name in the lake and the PostgreSQL schema's mark (default "default"; a schema holds one portal); a portal under "portals" in the config file also picks its database`,
  )
    .option("lake", {
      type: "string",
      group: TARGET,
      description:
        "Lake folder: DIR/<table>/portal=<name>/snapshot_date=<day>/part-<id>.parquet, listed in DIR/_lake.json",
    })
    .option("postgres", {
      type: "string",
      group: TARGET,
      description:
        "PostgreSQL URL without a password, e.g. postgres://bi@db.example.com/analytics (password: LMS_PG_PASSWORD_FILE, PGPASSWORD or PGPASSFILE)",
    })
    .option("postgres-timeout", {
      type: "number",
      group: TARGET,
      description:
        "Seconds to wait on a PostgreSQL server that neither answers nor takes data before giving up, its tables left as they were (default 600; 0 waits for ever)",
    })
    .option("schema", {
      type: "string",
      group: TARGET,
      description:
        "PostgreSQL schema the tables go to, in lower case: letters, digits and _ (default lms)",
    })
    .option("keep", {
      type: "number",
      group: TARGET,
      description:
        "Keep the portal's newest N snapshot days in the lake; older ones are dropped after the publish (default: all kept)",
    })
    .option("snapshot-date", {
      type: "string",
      group: TARGET,
      description: "Day of the snapshot as YYYY-MM-DD (default: today in UTC)",
    })
    .example("$0 publish --lake /srv/lake --portal acme", "this week's snapshot of acme")
    .example(
      "LMS_PG_PASSWORD_FILE=/etc/lms-export/pg $0 publish --postgres postgres://bi@db/analytics",
      "the tables into schema lms, swapped in one transaction",
    )
    .example(
      "aws s3 sync /srv/lake s3://bucket/lake --exclude '_lake.json*' --exclude '_staging/*' && aws s3 cp /srv/lake/_lake.json s3://bucket/lake/_lake.json && aws s3 sync /srv/lake s3://bucket/lake --exclude '_lake.json*' --exclude '_staging/*' --delete",
      "then ship it: new files, the manifest, then removals (see the README)",
    );
}

/** Checks the targets before anything is opened, then publishes one portal or each of them. */
async function publishHandler(
  args: CommandArgs<typeof publishBuilder>,
  ctx: CliContext,
): Promise<void> {
  checkPublishTargets(args);
  const portal = args.portal === undefined ? undefined : checkPortalName(args.portal);
  const schema = args.schema === undefined ? undefined : checkSchemaName(args.schema);
  if (args.allPortals) {
    if (args.postgres !== undefined || args.db !== undefined) {
      throw new LmsExportError(
        "bad-input",
        "--all-portals publishes each portal's database to --lake only: leave out --postgres and --db",
      );
    }
    // The batch's own settings name whom to tell: each portal's publish reads its own.
    const notice = await batchNoticeTarget(args, ctx, portalCommandName("publish", args));
    const { names, atOnce } = await configuredPortals(args, ctx);
    await withFailureNotice(ctx, notice, () =>
      forEachPortal(names, atOnce, ctx, (name, portalCtx) =>
        publishOne({ ...args, portal: name, allPortals: false }, portalCtx, {}),
      ),
    );
    return;
  }
  const notice = new FailureNotice(ctx, portalCommandName("publish", args), args);
  await notice.run(() =>
    publishOne({ ...args, portal }, ctx, {
      postgres: args.postgres,
      schema,
      timeoutSeconds: args.postgresTimeout,
      settled: notice.settled,
    }),
  );
}

/**
 * `publish --lake DIR` and/or `--postgres URL`: copies the published tables out of the database
 * (opened read-only) as a Parquet lake and into a PostgreSQL schema. Prints what it wrote.
 */
export function registerPublish(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "publish",
    "Copy the tables to a Parquet lake (Hive layout) or PostgreSQL for other engines and BI tools",
    publishBuilder,
    (args) => publishHandler(args, ctx),
  );
}

type PublishArgs = Readonly<Record<string, unknown>> & {
  lake?: string | undefined;
  keep?: number | undefined;
  /** --wait: seconds to wait for a database another process holds (an extract merging). */
  wait?: number | undefined;
  portal?: string | undefined;
  snapshotDate?: string | undefined;
};

/** Publishes one database (the portal's, when the config file has it) to the targets given. */
async function publishOne(
  args: PublishArgs,
  ctx: CliContext,
  to: {
    postgres?: string | undefined;
    schema?: string | undefined;
    timeoutSeconds?: number;
    settled?: SettingsHook;
  },
): Promise<void> {
  const { config, logger, secrets } = await setupCommand(args, ctx, { settled: to.settled });
  // Checked before the database is opened; the logger warns of a password file others may read.
  const pg =
    to.postgres === undefined
      ? undefined
      : await pgSettings(to.postgres, ctx.env, { logger, signal: ctx.signal });
  if (pg?.password) secrets.push(pg.password);
  const wait = { seconds: args.wait, logger, signal: ctx.signal };
  await withDatabase(config, { readOnly: true, wait }, async (db) => {
    await publishTo(db, args, ctx, { ...to, pg, logger }).catch((error: unknown) => {
      // Said of the file: with several portals, which database it was is what helps.
      if (error instanceof NothingExtractedError) throw error.naming(db.path);
      throw stoppedBeforeEffect(error, pg, args.lake);
    });
  }).catch((error: unknown) => {
    throw unchosenPortalDatabase(error, config) ?? error;
  });
}

interface Targets {
  pg: PgSettings | undefined;
  schema?: string | undefined;
  timeoutSeconds?: number | undefined;
  logger: Logger;
}

/** Publishes the opened database to PostgreSQL and prints its tables. */
async function publishToPostgres(
  db: LmsDatabase,
  args: PublishArgs,
  ctx: CliContext,
  to: Targets & { pg: PgSettings },
): Promise<void> {
  const { pg, logger } = to;
  const options = {
    settings: pg,
    logger,
    signal: ctx.signal,
    ...(to.schema ? { schema: to.schema } : {}),
    ...(to.timeoutSeconds === undefined ? {} : { timeoutSeconds: to.timeoutSeconds }),
    ...(args.portal ? { portal: args.portal } : {}),
  };
  // Loaded when publishing there: pg is a tenth of a second of every command's start.
  const { publishPostgres } = await import("../../publish/postgres/publish-postgres.js");
  const result = await publishPostgres(db, options);
  const lines = result.tables.map((t) => `  ${result.schema}.${t.name} ${counted(t.rows, "row")}`);
  ctx.stdout.write(`postgres ${pg.shown}:\n${lines.join("\n")}\n`);
}

/**
 * A stop that reached the command as the bare interruption came before anything took effect:
 * PostgreSQL rolls back what it was sent, the lake's manifest still names the old files, and a
 * stop once PostgreSQL has committed lets the lake's renames finish (publishTo). Said so, with
 * what to do, rather than "interrupted" alone. A stop during PostgreSQL's COMMIT says more
 * (publish-postgres.ts) and is left as it is.
 */
function stoppedBeforeEffect(
  error: unknown,
  pg: PgSettings | undefined,
  lake: string | undefined,
): unknown {
  if (!(error instanceof LmsExportError && isInterruption(error))) return error;
  if (error.message !== "interrupted") return error;
  const targets = [
    ...(pg ? [`PostgreSQL ${pg.shown}`] : []),
    ...(lake === undefined ? [] : [`the lake ${lake}`]),
  ];
  return new LmsExportError(
    "interrupted",
    `publish interrupted before it took effect: ${targets.join(" and ")} ${targets.length > 1 ? "are" : "is"} as before; run the same publish again`,
    { cause: error },
  );
}

/** `error` with `more` said after its message (an interruption is left as it is). */
function saying(error: unknown, more: string): unknown {
  if (!(error instanceof LmsExportError) || isInterruption(error)) return error;
  return new LmsExportError(error.code, `${error.message}; ${more}`, { cause: error });
}

/**
 * Publishes the opened database to PostgreSQL (when `to.pg`) and the lake (when --lake). With
 * both, PostgreSQL commits between the lake's staging and its swap: a lake that cannot be
 * written (a full disk, another publish holding it) leaves PostgreSQL as it was too, and a
 * PostgreSQL that fails leaves the lake. Only the lake's last renames can still fail once
 * PostgreSQL has committed, and the message then says so.
 */
async function publishTo(
  db: LmsDatabase,
  args: PublishArgs,
  ctx: CliContext,
  to: Targets,
): Promise<void> {
  const { pg } = to;
  const postgres = pg && (() => publishToPostgres(db, args, ctx, { ...to, pg }));
  if (args.lake === undefined) return postgres?.();
  const lakeDir = settingPath({ dir: ctx.cwd, home: homeOf(ctx.env) }, args.lake);
  let committed = false;
  const beforeSwap =
    postgres &&
    (async () => {
      await postgres().catch((error: unknown) => {
        throw saying(error, "the lake is as it was");
      });
      committed = true;
    });
  const result = await publishLakeSaying(db, args, ctx, {
    lakeDir,
    logger: to.logger,
    ...(beforeSwap ? { beforeSwap } : {}),
  }).catch((error: unknown) => {
    throw committed
      ? saying(
          error,
          "PostgreSQL has this publish's tables: publish --lake again to bring it level",
        )
      : error;
  });
  const lines = result.partitions.map((p) => `  ${p.path} ${counted(p.rows, "row")}`);
  if (result.dropped.length > 0) lines.push(`  dropped snapshots: ${result.dropped.join(", ")}`);
  ctx.stdout.write(
    `lake ${lakeDir}: portal ${result.portal}, ${result.snapshotDate}\n${lines.join("\n")}\n`,
  );
  if (result.cleanupStopped) {
    // Exit 0: the publish took effect, and a wrapper that retries on failure would publish again.
    ctx.stderr.write(`${stoppedAfterCommit(result, lakeDir, args.keep)}\n`);
  }
}

/**
 * publishLake with the command's options. Once the lake names the new snapshot a stop is no
 * failure, as what it cuts short is cleanup: a second Ctrl-C, which ends the process at once,
 * says so as its last words.
 */
function publishLakeSaying(
  db: LmsDatabase,
  args: PublishArgs,
  ctx: CliContext,
  lake: { lakeDir: string; logger: Logger; beforeSwap?: () => Promise<void> },
): Promise<PublishLakeResult> {
  let published: string | undefined;
  const publishing = () =>
    publishLake(db, {
      ...lake,
      ...(args.portal ? { portal: args.portal } : {}),
      ...(args.snapshotDate ? { snapshotDate: args.snapshotDate } : {}),
      ...(args.keep === undefined ? {} : { keep: args.keep }),
      signal: ctx.signal,
      onCommitted: (snapshot) => {
        published = stoppedAfterCommit(snapshot, lake.lakeDir, args.keep);
      },
    });
  const words = () => ({ stdout: "", stderr: published === undefined ? "" : `${published}\n` });
  return ctx.lastWords?.during(words, publishing) ?? publishing();
}

/** The line of a publish stopped after its commit: what took effect, what is left to whom. */
function stoppedAfterCommit(
  snapshot: { portal: string; snapshotDate: string },
  lakeDir: string,
  keep: number | undefined,
): string {
  const left =
    keep === undefined
      ? "stopped before removing old files, the next publish removes them"
      : `stopped before removing old files and the snapshots beyond the ${keep} kept, the next publish with --keep removes them`;
  return `lms-export: published snapshot ${snapshot.snapshotDate} of portal ${snapshot.portal} to ${lakeDir}; ${left}`;
}
