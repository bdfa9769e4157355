import { describe, expect, test } from "vitest";
import { postgresInstalled } from "../../src/bench/temp-postgres.js";
import { publishPostgres } from "../../src/publish/postgres/publish-postgres.js";
import { biSettings, useBiServer } from "./helpers/bi-server.js";
import { counts, duringTakeCopy, publishedThenGrown } from "./helpers/mid-copy.js";

const PASSWORD = "lost-pass";
const installed = postgresInstalled();
const bi = useBiServer(PASSWORD, installed);

const settings = () => biSettings(bi.current, PASSWORD);

/** Connects to `bi` as the superuser, waiting out the server's restart after a crash. */
async function afterRestart() {
  for (let i = 0; ; i++) {
    try {
      return await bi.current.server.admin("bi");
    } catch (error) {
      if (i >= 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe.skipIf(!installed)("publish --postgres, the server's process killed", () => {
  test("says the connection was lost and to publish again; the previous tables stay", async () => {
    // The restart ends every session, the file's own admin connection too.
    bi.current.admin.on("error", () => undefined);
    const { db, firstCounts } = await publishedThenGrown(await settings(), "lost", "lost");
    try {
      const failing = publishPostgres(db, { settings: await settings(), schema: "lost" }).then(
        () => "published",
        (error: unknown) => String((error as Error).message),
      );
      const killed = await duringTakeCopy(await bi.current.server.admin("bi"), (pid) => {
        process.kill(pid, "SIGKILL");
      });
      expect(killed).toBe(true);
      expect(await failing).toMatch(
        /^publishing to PostgreSQL .* failed: .*: the connection to the server was lost \(it stopped or restarted, or the network dropped\); publish again once the server answers; its tables are as they were$/,
      );
      const client = await afterRestart();
      try {
        expect(await counts(client, "lost")).toEqual(firstCounts);
      } finally {
        await client.end();
      }
    } finally {
      db.close();
    }
  });
});
