/**
 * A read by id answered with another record (a cache or a proxy that mixes up its entries): the
 * record of product 2 came back as product 3, so product 2 was missing from the table and
 * product 3 held product 2's fields, and the run ended well. The answer is now asked again, and a
 * portal that keeps answering so fails the run, the database as it was. Real HTTP to the
 * simulator through a proxy that mixes up the answer, a real DuckDB file.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { normaliseApi, normaliseTable } from "../helpers/table-snapshot.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { forwardingPortal } from "./forwarding-portal.js";

const KEY = "lookup-other-key";
const dir = tempDirForFile("lms-lookup-other-");

/** A portal whose read of product 2 answers it as product 3, `times` times. */
async function mixedUpPortal(sim: RunningSimulator, times: number) {
  let left = times;
  return forwardingPortal(sim, {
    answer: (path, text) =>
      path.endsWith("/product/get/2") && left-- > 0
        ? text.replace(`"product_id":2,`, `"product_id":3,`)
        : text,
  });
}

async function productsOf(db: string) {
  const handle = await openDatabase(db, { readOnly: true });
  try {
    return await normaliseTable(await handle.connect(), "product");
  } finally {
    handle.close();
  }
}

const run = (baseUrl: string, db: string) =>
  runExtract({
    db,
    clientOptions: { baseUrl, apiKey: KEY, concurrency: 2 },
    mode: "full",
    logger: silentLogger,
  });

describe("extract of a read by id answered with another record", () => {
  it("asks again, and fails with the database unchanged when the answer stays wrong", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 60, takesPerUser: 2, seed: 3 });
    const db = join(dir, "products.duckdb");
    const once = await mixedUpPortal(sim, 1);
    const always = await mixedUpPortal(sim, Number.POSITIVE_INFINITY);
    try {
      await run(once.baseUrl, db);
      const products = await productsOf(db);
      const expected = normaliseApi("product", sim.data.list("product"));
      for (const id of sim.data.deletedProductIds()) expected.delete(id);
      expect(products).toEqual(expected);

      await expect(run(always.baseUrl, db)).rejects.toThrow(
        /product\/get\/2.*asked for product_id 2, the portal answered the record of product_id 3/,
      );
      expect(await productsOf(db)).toEqual(products);
    } finally {
      await once.close();
      await always.close();
      await sim.close();
    }
  });
});
