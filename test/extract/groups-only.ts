/** A full run of the groups alone: what a test of how one list is read or typed needs. */
import { runExtract } from "../../src/extract/extract.js";
import { type Logger, silentLogger } from "../../src/log/logger.js";

export async function extractGroupsOnly(
  baseUrl: string,
  apiKey: string,
  db: string,
  logger: Logger = silentLogger,
) {
  await runExtract({
    db,
    clientOptions: { baseUrl, apiKey, concurrency: 1, pageSize: 100, logger },
    mode: "full",
    only: ["grp"],
    logger,
  });
}
