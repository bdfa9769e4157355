/**
 * Size check, run on demand: SIM_SCALE=1 npx vitest run test/simulator/scale.test.ts
 * Generates 100,000 users and about 2,000,000 takes, prints time and memory, then pages through
 * lists over HTTP and prints throughput. Skipped by default: it needs ~10 s of both cores.
 */
import { describe, expect, it } from "vitest";
import { startSimulator } from "../../src/simulator/server.js";
import { client, type ListBody, tokenFor } from "./http.js";

const MB = 1024 * 1024;
const users = Number(process.env.SIM_SCALE_USERS ?? 100_000);

describe.skipIf(!process.env.SIM_SCALE)("simulator at scale", () => {
  it(`holds ${users} users and their takes in under 2 GB and serves pages`, async () => {
    const started = performance.now();
    const sim = await startSimulator({ users, takesPerUser: 20, seed: 1 });
    const generatedMs = performance.now() - started;
    const memory = process.memoryUsage();
    console.log(
      `generated ${sim.data.count("user")} users, ${sim.data.count("take")} takes, ` +
        `${sim.data.count("product_access")} access records, ${sim.data.count("user_grp")} links ` +
        `in ${Math.round(generatedMs)} ms; heap ${Math.round(memory.heapUsed / MB)} MB, ` +
        `rss ${Math.round(memory.rss / MB)} MB, array buffers ${Math.round(memory.arrayBuffers / MB)} MB`,
    );
    expect(memory.rss).toBeLessThan(2048 * MB);
    try {
      const api = client(sim.baseUrl, await tokenFor(sim.baseUrl));
      let t = performance.now();
      let records = 0;
      let pages = 0;
      for (let start = 0; ; start += 1000) {
        const body = (await api.post("/product_access/get_all_for_bundle", { start, limit: 1000 }))
          .body as ListBody;
        records += body.result.length;
        pages++;
        if (body.result.length < 1000) break;
      }
      console.log(
        `product_access: ${records} records in ${pages} pages, ${Math.round(performance.now() - t)} ms (sequential)`,
      );
      expect(records).toBe(sim.data.count("product_access"));

      const ids = sim.data.userIds().slice(0, 5000);
      t = performance.now();
      let takes = 0;
      let next = 0;
      const worker = async () => {
        while (next < ids.length) {
          const id = ids[next++] as number;
          const body = (await api.post(`/take/get_all_for_user/${id}`, { limit: 1000 }))
            .body as ListBody;
          takes += body.result.length;
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      const ms = performance.now() - t;
      console.log(
        `takes: ${ids.length} users, ${takes} takes in ${Math.round(ms)} ms (${Math.round((ids.length * 1000) / ms)} req/s, 16 in flight)`,
      );
      expect(takes).toBeGreaterThan(0);
    } finally {
      await sim.close();
    }
  });
});
