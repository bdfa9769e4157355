import { describe, expect, test } from "vitest";
import { postgresInstalled } from "../../src/bench/temp-postgres.js";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import type { LmsDatabase } from "../../src/load/database.js";
import type { PgSettings } from "../../src/publish/postgres/connection-settings.js";
import { publishPostgres } from "../../src/publish/postgres/publish-postgres.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { tempDir } from "../helpers/temp-dir.js";
import { biSettings, useBiServer } from "./helpers/bi-server.js";
import { filledDatabase } from "./helpers/filled-db.js";
import { counts, duringTakeCopy, publishedThenGrown } from "./helpers/mid-copy.js";

const PASSWORD = "stall-pass";
const installed = postgresInstalled();
const bi = useBiServer(PASSWORD, installed);

const settings = () => biSettings(bi.current, PASSWORD);

const STALLED =
  /failed: PostgreSQL has neither answered nor taken data for 2 s: .*pg_stat_activity.*--postgres-timeout SECONDS.*; its tables are as they were$/;

/**
 * Runs `act` on a database published once to `schema` and then given one more take, while every
 * COMMIT waits for a synchronous standby that does not exist (as with one that is down). Then
 * lets the server go on, and checks that the publish `act` made was committed all the same.
 */
async function whileCommitsWait(
  schema: string,
  act: (db: LmsDatabase, settings: PgSettings) => Promise<unknown>,
): Promise<void> {
  const db = await filledDatabase(await tempDir(), schema);
  const admin = bi.current.admin;
  try {
    await publishPostgres(db, { settings: await settings(), schema });
    const connection = await db.connect();
    await connection.run(
      "INSERT INTO take SELECT * REPLACE (take_id + 100000 AS take_id) FROM take LIMIT 1",
    );
    connection.closeSync();
    await admin.query("ALTER SYSTEM SET synchronous_standby_names = 'absent_standby'");
    await admin.query("SELECT pg_reload_conf()");
    await act(db, await settings());
  } finally {
    await admin.query("ALTER SYSTEM RESET synchronous_standby_names");
    await admin.query("SELECT pg_reload_conf()");
    db.close();
  }
  // Released from its wait, the server's transaction is committed: the new take is there.
  const client = await bi.current.server.admin("bi");
  try {
    for (let i = 0; i < 100 && (await counts(client, schema)).take !== 301; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await counts(client, schema)).take).toBe(301);
  } finally {
    await client.end();
  }
}

/** Whether the publish is seen waiting on `event` (a wait_event_type, or a wait_event). */
async function seenWaiting(event: string): Promise<boolean> {
  const watcher = await bi.current.server.admin("bi");
  try {
    for (let i = 0; i < 2000; i++) {
      const waiting = await watcher.query(
        "SELECT 1 FROM pg_stat_activity WHERE application_name = 'lms-export publish' AND $1 IN (wait_event_type, wait_event)",
        [event],
      );
      if (waiting.rowCount) return true;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return false;
  } finally {
    await watcher.end();
  }
}

describe.skipIf(!installed)("publish --postgres to a server that stops answering", () => {
  test("a server process stopped mid-COPY: given up after the timeout, tables as they were", async () => {
    const { db, firstCounts } = await publishedThenGrown(await settings(), "stopped", "stopped");
    const publishing = publishPostgres(db, {
      settings: await settings(),
      schema: "stopped",
      timeoutSeconds: 2,
    });
    const outcome = publishing.then(
      () => "published",
      (error: unknown) => error,
    );
    let stopped: number | undefined;
    try {
      expect(
        await duringTakeCopy(await bi.current.server.admin("bi"), (pid) => {
          stopped = pid;
          process.kill(pid, "SIGSTOP");
        }),
      ).toBe(true);
      expect(await outcome).toMatchObject({
        code: "publish-failed",
        message: expect.stringMatching(STALLED),
      });
    } finally {
      if (stopped !== undefined) process.kill(stopped, "SIGCONT");
      db.close();
    }
    const client = await bi.current.server.admin("bi");
    try {
      // The resumed backend finds its connection closed and rolls its transaction back.
      expect(await counts(client, "stopped")).toEqual(firstCounts);
    } finally {
      await client.end();
    }
  }, 60_000);

  test("a lock another session holds past the timeout: given up, tables as they were", async () => {
    const db = await filledDatabase(await tempDir(), "locked");
    try {
      const first = await publishPostgres(db, { settings: await settings(), schema: "locked" });
      const holder = await bi.current.server.admin("bi");
      try {
        // A reader in the middle of a long transaction: the swap's ALTER TABLE must wait for it.
        await holder.query("BEGIN");
        await holder.query("LOCK TABLE locked.take IN ACCESS SHARE MODE");
        await expect(
          publishPostgres(db, { settings: await settings(), schema: "locked", timeoutSeconds: 2 }),
        ).rejects.toThrow(
          // The holder is known: no word of a hanging server or a lost network.
          /failed: another session( \(pid \d+\))? held a lock on locked\.take for all of the 2 s --postgres-timeout allows: a transaction in that session read the table and has not ended \(see pg_stat_activity\); .*--postgres-timeout SECONDS.*; its tables are as they were$/,
        );
        await holder.query("COMMIT");
        expect(await counts(holder, "locked")).toEqual(
          Object.fromEntries(first.tables.map((t) => [t.name, t.rows])),
        );
      } finally {
        await holder.end();
      }
    } finally {
      db.close();
    }
  }, 60_000);

  test("a COMMIT the server never answers is not told as tables left as they were", async () => {
    await whileCommitsWait("committing", (db, settings) =>
      expect(
        publishPostgres(db, { settings, schema: "committing", timeoutSeconds: 2 }),
      ).rejects.toThrow(
        /neither answered .*; it was committing and may have committed: publish again to be sure which tables it holds$/,
      ),
    );
  }, 60_000);

  test("a Ctrl-C while the server commits says it may have committed", async () => {
    await whileCommitsWait("ctrl_c", async (db, settings) => {
      const controller = new AbortController();
      const publishing = publishPostgres(db, {
        settings,
        schema: "ctrl_c",
        signal: controller.signal,
      });
      expect(await seenWaiting("SyncRep")).toBe(true);
      controller.abort(new LmsExportError("interrupted", "interrupted"));
      await expect(publishing).rejects.toMatchObject({
        code: "interrupted",
        message: expect.stringMatching(
          /^interrupted while PostgreSQL .* was committing: it may have committed; publish again to be sure which tables it holds$/,
        ),
      });
    });
  }, 60_000);

  test("a wait shorter than the timeout is waited out and the publish succeeds", async () => {
    const db = await filledDatabase(await tempDir(), "waited");
    try {
      await publishPostgres(db, { settings: await settings(), schema: "waited" });
      const holder = await bi.current.server.admin("bi");
      try {
        await holder.query("BEGIN");
        await holder.query("LOCK TABLE waited.take IN ACCESS SHARE MODE");
        const publishing = publishPostgres(db, {
          settings: await settings(),
          schema: "waited",
          timeoutSeconds: 30,
        });
        // Released once the publish is seen waiting for it, well within the timeout. Watched
        // from a third session: inside the holder's transaction pg_stat_activity stays as it
        // first read it.
        expect(await seenWaiting("Lock")).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await holder.query("COMMIT");
        const result = await publishing;
        expect(result.tables.find((t) => t.name === "take")?.rows).toBe(300);
      } finally {
        await holder.end();
      }
    } finally {
      db.close();
    }
  }, 60_000);

  test("readers of a table another session holds are not queued behind the waiting publish", async () => {
    const db = await filledDatabase(await tempDir(), "queued");
    try {
      await publishPostgres(db, { settings: await settings(), schema: "queued" });
      const holder = await bi.current.server.admin("bi");
      const reader = await bi.current.server.admin("bi");
      try {
        // A BI session in the middle of a transaction that read grp.
        await holder.query("BEGIN");
        await holder.query("SELECT count(*) FROM queued.grp");
        const lines: string[] = [];
        const publishing = publishPostgres(db, {
          settings: await settings(),
          schema: "queued",
          timeoutSeconds: 60,
          logger: recordingLogger(lines),
        });
        // Awaited below; a failing assertion before that must not leave it unhandled.
        publishing.catch(() => undefined);
        expect(await seenWaiting("Lock")).toBe(true);
        // Queued behind the publish's request for grp, this reader would wait for the holder.
        await reader.query("SET statement_timeout = '10s'");
        const read = await reader.query("SELECT count(*)::int AS n FROM queued.grp");
        expect(read.rows[0].n).toBe(7);
        await holder.query("COMMIT");
        const result = await publishing;
        expect(result.tables.find((t) => t.name === "grp")?.rows).toBe(7);
        // The holders' pids are looked up once the lock request gave up, and may be missed then.
        expect(lines).toContainEqual(
          expect.stringMatching(
            /^info waiting for a session holding queued\.grp( \(pid [\d, ]+; see pg_stat_activity\))? to end its transaction/,
          ),
        );
      } finally {
        await holder.end();
        await reader.end();
      }
    } finally {
      db.close();
    }
  }, 60_000);

  test("a publish waits its turn behind another publish of the schema, however long", async () => {
    const db = await filledDatabase(await tempDir(), "turns");
    try {
      await publishPostgres(db, { settings: await settings(), schema: "turns" });
      const other = await bi.current.server.admin("bi");
      try {
        // The lock another publish of the schema holds through its transaction.
        await other.query("SELECT pg_advisory_lock(hashtext('lms-export:turns'))");
        const publishing = publishPostgres(db, {
          settings: await settings(),
          schema: "turns",
          timeoutSeconds: 1,
        });
        expect(await seenWaiting("advisory")).toBe(true);
        // Three times the timeout: the turn is not the server's silence.
        await new Promise((resolve) => setTimeout(resolve, 3000));
        await other.query("SELECT pg_advisory_unlock(hashtext('lms-export:turns'))");
        const result = await publishing;
        expect(result.tables.find((t) => t.name === "take")?.rows).toBe(300);
      } finally {
        await other.end();
      }
    } finally {
      db.close();
    }
  }, 60_000);
});
