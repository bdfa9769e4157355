/**
 * Another process holding a database file open for writing, as `apply` or a DuckDB client does:
 * DuckDB's file lock is per process, so a test's own instance would not keep an extract out.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

const SCRIPT = `
import { DuckDBInstance } from "@duckdb/node-api";
const instance = await DuckDBInstance.create(process.argv[1]);
process.stdout.write("locked\\n");
process.stdin.resume();
process.stdin.on("end", () => { instance.closeSync(); process.exit(0); });
`;

export interface DatabaseLocker {
  /** Lets the database go and waits for the process to end. */
  release(): Promise<void>;
}

/** Resolves once a child process holds `path` open for writing. */
export async function lockDatabase(path: string): Promise<DatabaseLocker> {
  const child: ChildProcess = spawn(process.execPath, ["--input-type=module", "-e", SCRIPT, path], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("locked")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the locking process ended (${code})`)));
  });
  return {
    release: async () => {
      const exited = once(child, "exit");
      child.stdin?.end();
      await exited;
    },
  };
}
