/**
 * `mkdir -p`, one level at a time. Node's own recursive mkdir never returns for a path under
 * /proc or /sys (the kernel answers ENOENT for the child and EEXIST for the parent, and Node
 * retries the pair forever at full CPU, deaf to signals a command waits on); here every error ends
 * the walk and is thrown as it came. A file where a folder must be is an ENOTDIR naming that file
 * (`blockedBy`), so a message can say what is in the way.
 */
import { mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";

/** An ENOTDIR thrown for a file standing where a folder of the path must be. */
export type BlockedError = NodeJS.ErrnoException & { blockedBy: string };

/** Creates `path` and the folders above it that are missing; throws the first error met. */
export async function makeFolders(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) return;
  if (info !== undefined) {
    const blocked: BlockedError = Object.assign(new Error(`${path} is a file`), {
      code: "ENOTDIR",
      blockedBy: path,
    });
    throw blocked;
  }
  const parent = dirname(path);
  if (parent !== path) await makeFolders(parent);
  await mkdir(path).catch((error: NodeJS.ErrnoException) => {
    // Another process may have made it meanwhile; anything else is the answer.
    if (error.code !== "EEXIST") throw error;
  });
}
