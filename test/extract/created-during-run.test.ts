/**
 * A link `apply` creates while a full extract pages, after the extract listed the links, stays in
 * the database after that extract's merge (the next run confirms it), as an edit written during
 * the run does; a link deleted from the portal afterwards is gone at the next full run, and one
 * apply found already in the database ("unchanged", nothing sent) is not kept for it. A link
 * someone made in the portal during the run, which apply's create found there ("unchanged", the
 * portal's answer written), is kept as the portal confirmed it. Real HTTP
 * to the simulator (through a portal that holds the links' confirmation, so the moment is caught
 * without timing), a real DuckDB file, `apply` as a child process.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { silentLogger } from "../../src/log/logger.js";
import { startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { heldPortal } from "./held-portal.js";

const KEY = "created-during-run-key";
const dir = tempDirForFile("lms-created-during-");

it("a full run keeps the link apply created while it paged, and the next full run drops it once the portal has", async () => {
  const sim = await startSimulator({ apiKey: KEY, users: 40, takesPerUser: 1, seed: 7 });
  const db = join(dir, "created.duckdb");
  const keyFile = join(dir, "key");
  await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
  const extract = (baseUrl: string) =>
    runExtract({
      db,
      clientOptions: { baseUrl, apiKey: KEY, concurrency: 4, pageSize: 20 },
      mode: "full",
      waitSeconds: 600,
      logger: silentLogger,
    });
  // Every command goes through the holding portal: one address, as one portal's database has.
  let armed = false;
  const portal = await heldPortal(
    sim,
    (path, body) => armed && path.includes("/user_grp/get_all") && body.includes('"operator":"in"'),
  );
  try {
    await extract(portal.baseUrl);
    // One link gone from the portal: the next run confirms it by key, after listing the links.
    const [first] = sim.data.list("user_grp");
    if (!first) throw new Error("no link");
    sim.data.removeKey("user_grp", first.user_grp_id);
    const group = sim.data.list("grp")[0]?.grp_id;
    const linked = new Set(
      sim.data
        .list("user_grp")
        .filter((link) => link.user_grp_grp_id === group)
        .map((link) => link.user_grp_user_id),
    );
    const [user, other] = sim.data.userIds().filter((id) => !linked.has(id));
    armed = true;
    const run = extract(portal.baseUrl);
    run.catch(() => undefined);
    await portal.held;
    // Someone makes a link in the portal after the run listed them; apply asks for it too, and its
    // check before the create finds it there.
    const made = sim.data.createUserGroup({
      user_grp_user_id: other,
      user_grp_grp_id: group,
      user_grp_group_admin: 0,
    });
    const file = join(dir, "links.csv");
    // The gone link asked for too: the database still has it, so apply finds it "unchanged" and
    // sends nothing; the portal lacks it, and the merge must drop it.
    const gone = `${first.user_grp_user_id},${first.user_grp_grp_id}`;
    const rows = [`${user},${group}`, gone, `${other},${group}`];
    await writeFile(file, `user_grp_user_id,user_grp_grp_id\n${rows.join("\n")}\n`);
    const applied = await runCli(["apply", file, "--op", "user_grp.create", "--yes"], {
      env: { LMS_DB: db, LMS_BASE_URL: portal.baseUrl, LMS_API_KEY_FILE: keyFile },
    });
    expect(applied.stdout).toContain("1 applied, 2 unchanged");
    expect(applied.code).toBe(0);
    // The made and found links carry the portal's answer; the gone one only the database's copy.
    const outcomes = "SELECT line::INTEGER, outcome, answered FROM _changes ORDER BY line";
    expect(await readRows(db, outcomes)).toEqual([
      [2, "applied", true],
      [3, "unchanged", false],
      [4, "unchanged", true],
    ]);
    portal.release();
    await run;
    const dropped = `SELECT user_grp_id FROM user_grp WHERE user_grp_id = ${first.user_grp_id}`;
    expect(await readRows(db, dropped)).toEqual([]);
    const created = sim.data
      .list("user_grp")
      .find((link) => link.user_grp_user_id === user && link.user_grp_grp_id === group);
    if (!created) throw new Error("the portal has no new link");
    const stored = `SELECT user_grp_user_id::INTEGER, user_grp_grp_id::INTEGER FROM user_grp WHERE user_grp_id = ${created.user_grp_id}`;
    expect(await readRows(db, stored)).toEqual([[user, group]]);
    const found = `SELECT user_grp_user_id::INTEGER FROM user_grp WHERE user_grp_id = ${made.user_grp_id}`;
    expect(await readRows(db, found)).toEqual([[other]]);
    // Deleted from the portal later: the next full run drops it, as any record gone.
    sim.data.removeKey("user_grp", created.user_grp_id);
    await extract(portal.baseUrl);
    expect(await readRows(db, stored)).toEqual([]);
  } finally {
    await portal.close();
    await sim.close();
  }
});
