/**
 * Staging a run whose write into the database file fails: the process's file size limit
 * (`ulimit -f`) set in a shell that then runs the CLI, and a roster large enough to be held back
 * by it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/** A `via` for runCli: the command runs with no file allowed past `kib` KiB. */
export const limitedTo = (kib: number): string[] => [
  "bash",
  "-c",
  `ulimit -f ${kib} && exec "$@"`,
  "bash",
];

/** A roster of 20,000 people (about 1.3 MB in the .wal) whose first names start with `first`. */
export async function bigRoster(dir: string, name: string, first: string): Promise<string> {
  const lines = ["user_id,first_name,last_name,email"];
  for (let id = 1; id <= 20_000; id++)
    lines.push(`${id},${first}${id},Last${id},p${id}@example.com`);
  const path = join(dir, name);
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}
