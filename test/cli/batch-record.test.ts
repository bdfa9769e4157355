/**
 * The `--all-portals` batch record: where it lives, what reading a hand-edited one says, writes
 * that end in order whatever order portals end in, and a record that cannot be written, which
 * never stops the batch.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { BatchJournal } from "../../src/cli/batch-journal.js";
import { newBatch, resumedBatch } from "../../src/cli/batch-plan.js";
import { batchRecordPath, readBatchRecord } from "../../src/cli/batch-record.js";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { tempDir } from "../helpers/temp-dir.js";

const portals = (dir: string) =>
  ["a", "b"].map((name) => ({ name, db: join(dir, `lms-${name}.duckdb`) }));

describe("the batch record", () => {
  test("lives beside the config file, named after it", () => {
    expect(batchRecordPath("/etc/lms/lms-export.config.json")).toBe(
      "/etc/lms/lms-export.config.batch.json",
    );
    expect(batchRecordPath("/srv/portals")).toBe("/srv/portals.batch.json");
  });

  test("one lms-export did not write is refused, naming the file and the way on", async () => {
    const dir = await tempDir("lms-batch-");
    const path = join(dir, "x.batch.json");
    expect(await readBatchRecord(path)).toBeUndefined();
    await writeFile(path, '{"version": 1, "portals": {}}');
    const refused = await readBatchRecord(path).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LmsExportError);
    expect((refused as LmsExportError).code).toBe("bad-input");
    expect((refused as LmsExportError).message).toBe(
      `${path} is not a batch record lms-export wrote: delete it to resume each portal's interrupted run without it`,
    );
  });

  test("portals ending at once are all recorded, and a resumed batch skips the finished", async () => {
    const dir = await tempDir("lms-batch-");
    const path = join(dir, "x.batch.json");
    const lines: string[] = [];
    const plan = newBatch(portals(dir), { only: ["grp"] }, new Date("2026-11-26T10:00:00Z"));
    const journal = new BatchJournal(path, plan.record, recordingLogger(lines), true);
    await journal.save();
    await writeFile(join(dir, "lms-a.duckdb"), "");
    const endedAt = "2026-11-26T10:02:30Z";
    await Promise.all([
      journal.ended("a", { db: join(dir, "lms-a.duckdb"), state: "done", runId: 12, endedAt }),
      journal.ended("b", { db: join(dir, "lms-b.duckdb"), state: "stopped", endedAt }),
    ]);
    expect(journal.saved).toBe(true);
    const record = await readBatchRecord(path);
    expect(record?.portals.a?.state).toBe("done");
    expect(record?.portals.b?.state).toBe("stopped");

    const resumed = resumedBatch(record!, portals(dir), {}, recordingLogger(lines));
    expect([...resumed.skipped]).toEqual([
      ["a", "done earlier in this batch (run 12, 2026-11-26 10:02 UTC)"],
    ]);
    expect(resumed.record.flags).toEqual({ only: ["grp"] });
    expect(lines).toEqual([
      "info continuing the --all-portals batch started 2026-11-26 10:00 UTC: 1 done earlier, 1 to extract",
    ]);
  });

  test("one that cannot be written warns once and never throws", async () => {
    const dir = await tempDir("lms-batch-");
    // A folder where the record should be: the rename over it fails, as in a read-only folder
    // (which root, running these tests, would write anyway).
    const path = join(dir, "x.batch.json");
    await mkdir(path);
    await writeFile(join(path, "keep"), "");
    const lines: string[] = [];
    const plan = newBatch(portals(dir), {}, new Date());
    const journal = new BatchJournal(path, plan.record, recordingLogger(lines), true);
    await journal.save();
    await journal.ended("a", { db: join(dir, "lms-a.duckdb"), state: "failed" });
    expect(journal.saved).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^warn could not write the batch record .*x\.batch\.json \(\w+\): `extract --all-portals --resume` cannot continue this batch/,
    );
  });
});
