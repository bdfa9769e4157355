/**
 * `user_grp.create` asking for a link that exists with another `user_grp_group_admin`: the
 * interface cannot edit a link, so it stays, and the person is warned, whether the local database
 * knew the link or the check before the create found it in the portal (made since the extract);
 * a link the create made, which the portal holds with another value than sent, says so too.
 */
import { createServer, type IncomingMessage } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "../roster/roster-cli.js";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(79);
});
afterAll(async () => {
  await fx.close();
});

const adminOf = (userId: number, groupId: number) =>
  fx.sim.data
    .list("user_grp")
    .find((l) => l.user_grp_user_id === userId && l.user_grp_grp_id === groupId)
    ?.user_grp_group_admin;

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A relay to the simulator standing for a portal that makes every link with admin 0, whatever
 * the create asked: it sets `user_grp_group_admin` to 0 in each create's body on the way.
 */
async function adminDroppingRelay(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const target = new URL(fx.sim.baseUrl);
  const server = createServer(async (request, response) => {
    let body: Buffer | string = await bodyOf(request);
    if (request.url?.endsWith("/user_grp/create")) {
      body = JSON.stringify({ ...JSON.parse(body.toString("utf8")), user_grp_group_admin: 0 });
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        ([name]) => !["host", "content-length", "connection"].includes(name),
      ),
    ) as Record<string, string>;
    const answer = await fetch(`${target.origin}${request.url}`, {
      method: request.method,
      headers,
      body: request.method === "GET" || request.method === "HEAD" ? undefined : body,
    });
    const type = answer.headers.get("content-type");
    response.writeHead(answer.status, type ? { "content-type": type } : {});
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("apply: a link that exists with another admin value", () => {
  it("made in the portal since the extract: found, left as it is, and warned about", async () => {
    const group = fx.sim.data.list("grp").at(1)?.grp_id as number;
    const [theirs, ours] = fx.outsiders(group, 2);
    if (theirs === undefined || ours === undefined) throw new Error("too few outsiders");
    fx.sim.data.createUserGroup({
      user_grp_user_id: theirs,
      user_grp_grp_id: group,
      user_grp_group_admin: 0,
    });
    const path = await csvFile(fx.dir, "admins.csv", [
      "user_grp_user_id,user_grp_grp_id,user_grp_group_admin",
      `${theirs},${group},1`,
      `${ours},${group},1`,
    ]);
    const creates = fx.sim.stats.byOperation.get("user_grp/create") ?? 0;
    const result = await fx.run(["apply", path, "--op", "user_grp.create", "--yes"]);
    expect(result.code, result.stderr).toBe(0);
    expect((fx.sim.stats.byOperation.get("user_grp/create") ?? 0) - creates).toBe(1);
    expect(adminOf(theirs, group)).toBe(0);
    expect(adminOf(ours, group)).toBe(1);
    expect(result.stderr).toContain(
      `line 2: user ${theirs} is already in group ${group} with user_grp_group_admin 0; the interface cannot change a link, so it stays`,
    );
    expect(result.stderr).not.toContain(`line 3: user ${ours}`);
  });

  it("made by this run with another value than sent: applied, said so in the warning, the results file and _changes", async () => {
    const group = fx.sim.data.list("grp").at(2)?.grp_id as number;
    const [user] = fx.outsiders(group, 1);
    if (user === undefined) throw new Error("too few outsiders");
    const path = await csvFile(fx.dir, "made-otherwise.csv", [
      "user_grp_user_id,user_grp_grp_id,user_grp_group_admin",
      `${user},${group},1`,
    ]);
    const relay = await adminDroppingRelay();
    const result = await fx
      .runWith(["apply", path, "--op", "user_grp.create", "--yes"], { baseUrl: relay.baseUrl })
      .finally(relay.close);
    expect(result.code, result.stderr).toBe(0);
    expect(adminOf(user, group)).toBe(0);
    const said = `the portal made the link of user ${user} to group ${group} with user_grp_group_admin 0, not the 1 sent; the interface cannot change a link, so it stays`;
    expect(result.stderr).toContain(`line 2: ${said}`);
    expect(result.stderr).not.toContain("is already in group");
    const rows = await query(
      fx.db,
      `SELECT outcome, error FROM read_csv('${path}.results.csv', header = true, all_varchar = true)`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.outcome).toBe("applied");
    expect(String(rows[0]?.error)).toContain(said);
    const recorded = await query(
      fx.db,
      `SELECT outcome, error FROM _changes WHERE file = 'made-otherwise.csv' AND line = 2`,
    );
    expect(recorded[0]?.outcome).toBe("applied");
    expect(String(recorded[0]?.error)).toContain(said);
  });
});
