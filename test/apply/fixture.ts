/** A simulated portal extracted into a DuckDB file, and the `apply` command run against both. */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { type CliRun, cli } from "../roster/roster-cli.js";

export const KEY = "apply-key-5e1f";
export const NOW = new Date("2026-06-01T00:00:00Z");

export interface ApplyFixture {
  readonly sim: RunningSimulator;
  readonly dir: string;
  readonly db: string;
  readonly keyFile: string;
  /** `lms-export ARGS --db DB --base-url ... --api-key-file ...` in-process. */
  run(args: string[]): Promise<CliRun>;
  /** The same with some of the connection flags replaced (another database, key or address). */
  runWith(
    args: string[],
    replaced: { db?: string; baseUrl?: string; keyFile?: string },
  ): Promise<CliRun>;
  /** The connection flags for a child process. */
  readonly flags: string[];
  /** Write requests (edits and creates) the simulator received so far. */
  writes(): number;
  /** The links of user `userId` in group `groupId` the portal has. */
  linksOf(userId: number, groupId: number): number;
  /** Users not yet in group `groupId`, the first `count`. */
  outsiders(groupId: number, count: number): number[];
  close(): Promise<void>;
}

/**
 * The fixture of a test file: started before its tests, closed after them, read through the
 * function returned (it exists once beforeAll has run).
 */
export function fixtureForFile(seed: number, users: number): () => ApplyFixture {
  let fx: ApplyFixture | undefined;
  beforeAll(async () => {
    fx = await startFixture(seed, users);
  });
  afterAll(async () => {
    await fx?.close();
  });
  return () => {
    if (fx === undefined) throw new Error("the apply fixture is not started");
    return fx;
  };
}

/** A portal of `users` people (25 a group: 600 make 24 groups) extracted into a new database. */
export async function startFixture(seed = 31, users = 120): Promise<ApplyFixture> {
  const sim = await startSimulator({ apiKey: KEY, users, takesPerUser: 1, now: NOW, seed });
  const dir = await mkdtemp(join(tmpdir(), "lms-apply-"));
  const db = join(dir, "lms.duckdb");
  const keyFile = join(dir, "key");
  await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
  const handle = await openDatabase(db);
  try {
    await runExtract({
      db: handle,
      clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY },
      mode: "full",
      logger: silentLogger,
    });
  } finally {
    handle.close();
  }
  const flagsWith = (replaced: { db?: string; baseUrl?: string; keyFile?: string }) => [
    "--db",
    replaced.db ?? db,
    "--base-url",
    replaced.baseUrl ?? sim.baseUrl,
    "--api-key-file",
    replaced.keyFile ?? keyFile,
    "--log-format",
    "json",
  ];
  const flags = flagsWith({});
  const linksOf = (userId: number, groupId: number) =>
    sim.data
      .list("user_grp")
      .filter((l) => l.user_grp_user_id === userId && l.user_grp_grp_id === groupId).length;
  return {
    sim,
    dir,
    db,
    keyFile,
    flags,
    run: (args) => cli([...args, ...flags], dir),
    runWith: async (args, replaced) => {
      if (replaced.baseUrl === undefined) return cli([...args, ...flagsWith(replaced)], dir);
      // `apply` sends only to the address its database's records came from: the database is
      // made to say it was extracted through this one (a relay, a dead port, a TLS front of
      // the same portal) for the run, and the portal's own again after it.
      const file = replaced.db ?? db;
      await recordAddress(file, replaced.baseUrl);
      try {
        return await cli([...args, ...flagsWith(replaced)], dir);
      } finally {
        await recordAddress(file, sim.baseUrl);
      }
    },
    writes: () => {
      let n = 0;
      for (const [operation, count] of sim.stats.byOperation) {
        if (operation.endsWith("/edit") || operation.endsWith("/create")) n += count;
      }
      return n;
    },
    linksOf,
    outsiders: (groupId, count) =>
      sim.data
        .userIds()
        .filter((u) => linksOf(u, groupId) === 0)
        .slice(0, count),
    close: () => sim.close(),
  };
}

/** A CSV file in the fixture's folder; answers its path. */
export async function csvFile(dir: string, name: string, lines: string[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

/** Makes every run of the database at `path` say it was extracted from `baseUrl`. */
async function recordAddress(path: string, baseUrl: string): Promise<void> {
  const db = await openDatabase(path);
  const connection = await db.connect();
  try {
    await connection.run(
      "UPDATE _runs SET options = json_merge_patch(options, json_object('baseUrl', $url::VARCHAR))",
      { url: baseUrl },
    );
  } finally {
    connection.closeSync();
    db.close();
  }
}
