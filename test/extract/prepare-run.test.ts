/**
 * Starting a run while the portal checks the key: the run is written down only once the key is
 * accepted, in the same attachment of the database as the decision when the check has already
 * answered, and with the database let go meanwhile when it has not (a reader in another process
 * opens it then). A real database file, a real second process.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideAndStartRun, type PendingKeyCheck } from "../../src/extract/prepare-run.js";
import { ExtractStore } from "../../src/load/extract-store.js";
import { silentLogger } from "../../src/log/logger.js";
import { readRows } from "../helpers/read-rows.js";
import { kill, spawnHelper, waitForLine } from "../load/helpers/child-process.js";

const request = { mode: "full" as const, logger: silentLogger, startedAt: new Date() };

let dir: string;
let db: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-prepare-run-"));
  db = join(dir, "lms.duckdb");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function openStore(): Promise<ExtractStore> {
  const wait = { seconds: 30, logger: silentLogger };
  return ExtractStore.open(db, { side: wait, database: wait });
}

/** A key check that has answered already. */
function answered(result: Promise<void>): PendingKeyCheck {
  result.catch(() => undefined);
  return { result, settled: () => true };
}

/** A child process holding `path` open read-only; fails if ten tries in two seconds find it locked. */
async function readerHolding(path: string): Promise<ChildProcess> {
  let last: unknown;
  for (let attempt = 0; attempt < 10; attempt++) {
    const reader = spawnHelper("hold-lock.mjs", [path, "read-only"]);
    try {
      await waitForLine(reader, "ready");
      return reader;
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw last;
}

describe("decideAndStartRun", () => {
  it("records the run when the key check has answered", async () => {
    const store = await openStore();
    try {
      const { runId, decision } = await decideAndStartRun(
        store,
        request,
        answered(Promise.resolve()),
      );
      expect(runId).toBe(1);
      expect(decision.mode).toBe("full");
    } finally {
      store.close();
    }
    expect(await readRows(db, "SELECT run_id, status FROM _runs")).toEqual([[1n, "running"]]);
  });

  it("writes nothing when the key was refused", async () => {
    const store = await openStore();
    const refused = new Error("HTTP 401: wrong key");
    try {
      await expect(
        decideAndStartRun(store, request, answered(Promise.reject(refused))),
      ).rejects.toBe(refused);
    } finally {
      store.close();
    }
    expect(await readRows(db, "SELECT count(*) FROM _runs")).toEqual([[0n]]);
  });

  it("lets the database go while the key check has not answered", async () => {
    const store = await openStore();
    let accept = () => {};
    const result = new Promise<void>((resolve) => {
      accept = resolve;
    });
    // The check is asked whether it answered right after the run is decided.
    let decided = () => {};
    const asked = new Promise<void>((resolve) => {
      decided = resolve;
    });
    let settled = false;
    result.then(() => {
      settled = true;
    });
    const keyCheck: PendingKeyCheck = {
      result,
      settled: () => {
        decided();
        return settled;
      },
    };
    const started = decideAndStartRun(store, request, keyCheck);
    await asked;
    // A reader in another process opens the database while the key check is pending. Tried a
    // few times: the first try may come while the attachment is still ending.
    const reader = await readerHolding(db);
    try {
      accept();
      // The run is written down once the reader lets go: the store waits for the lock.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await kill(reader);
      const { runId } = await started;
      expect(runId).toBe(1);
    } finally {
      await kill(reader);
      store.close();
    }
    expect(await readRows(db, "SELECT run_id, status FROM _runs")).toEqual([[1n, "running"]]);
  });
});
