/** A full run of the groups alone: what a test of how one list is read or typed needs. */
import { runExtract } from "../../src/extract/extract.js";
import { silentLogger } from "../../src/log/logger.js";

export async function extractGroupsOnly(baseUrl: string, apiKey: string, db: string) {
  await runExtract({
    db,
    clientOptions: { baseUrl, apiKey, concurrency: 1, pageSize: 100 },
    mode: "full",
    only: ["grp"],
    logger: silentLogger,
  });
}
