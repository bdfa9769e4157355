/**
 * A DuckDB file made damaged on purpose, for the tests of what a command says about one, and
 * its fingerprint, to show the command left it byte for byte.
 */
import { createHash } from "node:crypto";
import { open, readFile } from "node:fs/promises";

/** DuckDB's file starts with three 4 KiB headers; every block after them is checksummed. */
const HEADERS = 3 * 4096;

/** Overwrites every block of the DuckDB file at `path` after its headers. */
export async function damageDatabase(path: string): Promise<void> {
  const file = await open(path, "r+");
  const { size } = await file.stat();
  await file.write(Buffer.alloc(size - HEADERS, 0x5a), 0, size - HEADERS, HEADERS);
  await file.close();
}

/** The sha256 of the file at `path`, in hex. */
export async function fileDigest(path: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(path))
    .digest("hex");
}
