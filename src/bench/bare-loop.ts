/**
 * The least any client can do against the simulated portal: the same number of take-list
 * requests, for the portal's own users, over the same number of undici connections, each answer
 * JSON-parsed, nothing else.
 * The bench prints the extractor's latency figure beside it, so what the simulator and the
 * machine cost is not taken for the extractor's overhead.
 */
import { Pool } from "undici";

export async function bareLoop(
  baseUrl: string,
  requests: number,
  concurrency: number,
  userIds: readonly number[],
): Promise<number> {
  if (userIds.length === 0) throw new Error("bare loop: no user ids to ask for");
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/+$/, "");
  const pool = new Pool(url.origin, { connections: concurrency });
  try {
    const answer = await pool.request({
      path: `${prefix}/token`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ apikey: "demo-key" }),
    });
    const { token } = (await answer.body.json()) as { token: string };
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < requests) {
        const user = userIds[next++ % userIds.length];
        const response = await pool.request({
          path: `${prefix}/take/get_all_for_user/${user}`,
          method: "POST",
          headers: { authorization: token, "content-type": "application/json" },
          body: JSON.stringify({ limit: 500 }),
        });
        JSON.parse(await response.body.text());
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return performance.now() - started;
  } finally {
    await pool.close();
  }
}
