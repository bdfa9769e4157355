/**
 * Child process: runs a full merge of every extracted resource on the database argv[2] and, inside
 * the merge transaction just before COMMIT, prints "before-commit" and waits to be killed.
 */
import { openDatabase } from "../../../src/load/database.js";
import { mergeStaging } from "../../../src/load/merge.js";
import { EXTRACTED } from "../../../src/resources/registry.js";

const db = await openDatabase(process.argv[2] ?? "");
const connection = await db.connect();
// Pinned: a module's top-level locals die when its body suspends for good, and a collected
// instance closes the file, which would end the transaction before the kill it waits for.
(globalThis as { heldDatabase?: unknown }).heldDatabase = { db, connection };
await mergeStaging(connection, "killed", EXTRACTED, "full", {
  beforeCommit: async () => {
    process.stdout.write("before-commit\n");
    await new Promise(() => {});
  },
});
process.stdout.write("committed\n");
