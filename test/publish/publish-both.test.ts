/**
 * `publish --lake DIR --postgres URL`: the two targets stay in step when one of them fails. A lake
 * on a full disk (a real tmpfs; mounting needs root, which CI has) leaves PostgreSQL's tables as
 * they were, a PostgreSQL that refuses leaves the lake as it was, and a Ctrl-C once PostgreSQL
 * has committed still lets the lake follow. Through the command line, against a real PostgreSQL
 * server.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Writable } from "node:stream";
import { beforeAll, describe, expect, test } from "vitest";
import { postgresInstalled } from "../../src/bench/temp-postgres.js";
import { main } from "../../src/cli/main.js";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import type { LmsDatabase } from "../../src/load/database.js";
import { MANIFEST_FILE } from "../../src/publish/lake/manifest.js";
import { runCli } from "../helpers/in-process-cli.js";
import { fillUp, useSmallDisk } from "../helpers/small-disk.js";
import { useBiServer } from "./helpers/bi-server.js";
import { filledDatabase } from "./helpers/filled-db.js";
import { counts } from "./helpers/mid-copy.js";

const PASSWORD = "both-pass";
const installed = postgresInstalled();
const bi = useBiServer(PASSWORD, installed);

const small = useSmallDisk("lms-publish-both-", 4 << 20);
beforeAll(async () => {
  await writeFile(join(small.dir, "pg-password"), PASSWORD, { mode: 0o600 });
});

/** `publish --lake LAKE --postgres URL --schema SCHEMA` of `name.duckdb` in `dir`. */
function publishBoth(name: string, lake: string, schema: string) {
  const args = ["publish", "--db", `${name}.duckdb`, "--lake", lake];
  args.push("--postgres", bi.current.url, "--schema", schema, "--portal", "acme");
  return runCli(small.dir, args, { LMS_PG_PASSWORD_FILE: join(small.dir, "pg-password") });
}

/**
 * publishBoth with a Ctrl-C pressed as soon as PostgreSQL has committed: when the publish logs its
 * first published table, which it does right after the COMMIT.
 */
async function publishBothInterruptedAfterCommit(name: string, lake: string, schema: string) {
  const controller = new AbortController();
  let stderr = "";
  const logs = new Writable({
    write(chunk, _encoding, done) {
      stderr += String(chunk);
      if (String(chunk).includes('"table published"')) {
        controller.abort(new LmsExportError("interrupted", "interrupted"));
      }
      done();
    },
  });
  const args = ["publish", "--db", `${name}.duckdb`, "--lake", lake];
  args.push("--postgres", bi.current.url, "--schema", schema, "--portal", "acme");
  const code = await main(args, {
    stdout: new Writable({ write: (_chunk, _encoding, done) => done() }),
    stderr: logs,
    cwd: small.dir,
    env: { LMS_LOG_FORMAT: "json", LMS_PG_PASSWORD_FILE: join(small.dir, "pg-password") },
    signal: controller.signal,
  });
  return { code, aborted: controller.signal.aborted, stderr };
}

/** Adds a take to the database, so that a publish that went through is seen in the counts. */
async function addTake(db: LmsDatabase): Promise<void> {
  const connection = await db.connect();
  await connection.run(
    "INSERT INTO take SELECT * REPLACE (take_id + 100000 AS take_id) FROM take LIMIT 1",
  );
  connection.closeSync();
}

async function schemaCounts(schema: string): Promise<Record<string, number>> {
  const client = await bi.current.server.admin("bi");
  try {
    return await counts(client, schema);
  } finally {
    await client.end();
  }
}

describe.skipIf(!installed)("publish --lake --postgres", () => {
  test("a lake on a full disk leaves PostgreSQL's tables as they were", async (context) => {
    if (!small.mounted) context.skip("mounting a tmpfs needs root");
    const db = await filledDatabase(small.dir, "full");
    const lake = join(small.disk, "lake");
    try {
      expect((await publishBoth("full", lake, "full")).code).toBe(0);
      const before = {
        pg: await schemaCounts("full"),
        manifest: await readFile(join(lake, MANIFEST_FILE), "utf8"),
      };
      await addTake(db);
      await fillUp(join(small.disk, "filler"));
      const failed = await publishBoth("full", lake, "full");
      expect(failed.code).not.toBe(0);
      expect(failed.stderr).toMatch(/no space left on .*; the lake is as it was/);
      expect(await schemaCounts("full")).toEqual(before.pg);
      expect(await readFile(join(lake, MANIFEST_FILE), "utf8")).toBe(before.manifest);

      await rm(join(small.disk, "filler"));
      expect((await publishBoth("full", lake, "full")).code).toBe(0);
      expect((await schemaCounts("full")).take).toBe(before.pg.take! + 1);
    } finally {
      db.close();
    }
  });

  test("a PostgreSQL that refuses leaves the lake as it was, and says so", async () => {
    const db = await filledDatabase(small.dir, "refused");
    const lake = join(small.dir, "lake-refused");
    try {
      const first = await publishBoth("refused", lake, "refused");
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      const manifest = await readFile(join(lake, MANIFEST_FILE), "utf8");
      await addTake(db);
      // The schema now holds another portal's tables: the publish is refused there.
      const admin = await bi.current.server.admin("bi");
      await admin.query(`COMMENT ON TABLE refused._runs IS 'lms-export portal north'`);
      const marked = await admin.query(
        "SELECT obj_description('refused._runs'::regclass, 'pg_class') AS mark",
      );
      await admin.end();
      expect(marked.rows[0].mark).toContain("north");
      const failed = await publishBoth("refused", lake, "refused");
      expect(failed.code).not.toBe(0);
      expect(failed.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(failed.stderr).toMatch(/portal north.*; the lake is as it was$/m);
      expect(await readFile(join(lake, MANIFEST_FILE), "utf8")).toBe(manifest);
    } finally {
      db.close();
    }
  });

  test("a Ctrl-C once PostgreSQL has committed still brings the lake level with it", async () => {
    const db = await filledDatabase(small.dir, "late");
    const lake = join(small.dir, "lake-late");
    try {
      expect((await publishBoth("late", lake, "late")).code).toBe(0);
      const before = await schemaCounts("late");
      await addTake(db);
      const run = await publishBothInterruptedAfterCommit("late", lake, "late");
      expect(run.aborted).toBe(true);
      expect((await schemaCounts("late")).take).toBe(before.take! + 1);
      // The lake holds the same snapshot as PostgreSQL, as a publish not interrupted would.
      const manifest = JSON.parse(await readFile(join(lake, MANIFEST_FILE), "utf8")) as {
        partitions: { table: string; rows: number }[];
      };
      const take = manifest.partitions.find((p) => p.table === "take");
      expect(take?.rows).toBe(before.take! + 1);
      expect(run.code).toBe(0);
    } finally {
      db.close();
    }
  });
});
