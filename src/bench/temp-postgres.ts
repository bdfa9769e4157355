/**
 * A throwaway PostgreSQL server for the publish tests and benchmark: initdb in a temp folder, on a free port of
 * 127.0.0.1, its socket in that folder. initdb refuses to run as root, so as root both it and
 * pg_ctl run as the `postgres` user, who owns the folder. Local (socket) connections are trusted
 * for the test's admin connection; TCP connections need a password (scram-sha-256).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);
/** Debian's server binaries of the newest PostgreSQL installed (`/usr/lib/postgresql/<v>/bin`). */
function serverBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root) : [];
  const found = versions
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return found[0] === undefined ? undefined : join(root, found[0], "bin");
}

const PG_BIN = serverBinaries() ?? "/usr/lib/postgresql/15/bin";

export function postgresInstalled(): boolean {
  return existsSync(join(PG_BIN, "initdb")) && existsSync(join(PG_BIN, "pg_ctl"));
}

export interface PgServer {
  readonly port: number;
  readonly socketDir: string;
  /** A superuser connection over the socket (no password). */
  admin(database?: string): Promise<pg.Client>;
  /** Runs `psql` as the superuser over the socket with these arguments; answers its stdout. */
  psql(database: string, args: string[]): Promise<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Runs a PostgreSQL binary as the `postgres` user when this process is root. */
function asPostgres(binary: string, args: string[]) {
  const path = join(PG_BIN, binary);
  return process.getuid?.() === 0
    ? run("runuser", ["-u", "postgres", "--", path, ...args])
    : run(path, args);
}

export async function startPgServer(): Promise<PgServer> {
  const dir = await mkdtemp(join(tmpdir(), "lms-pg-"));
  await chmod(dir, 0o700);
  if (process.getuid?.() === 0) await run("chown", ["postgres:postgres", dir]);
  const data = join(dir, "data");
  try {
    return await initAndStart(dir, data);
  } catch (error) {
    await asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(
      () => undefined,
    );
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function initAndStart(dir: string, data: string): Promise<PgServer> {
  await asPostgres("initdb", [
    "-D",
    data,
    "-U",
    "postgres",
    "-E",
    "UTF8",
    "--no-sync",
    "--auth-local=trust",
    "--auth-host=scram-sha-256",
  ]);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -k ${dir} -p ${port} -c fsync=off`;
  await asPostgres("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-w", "-o", options, "start"]);
  return {
    port,
    socketDir: dir,
    async admin(database = "postgres") {
      const client = new pg.Client({ host: dir, port, user: "postgres", database });
      await client.connect();
      return client;
    },
    async psql(database, args) {
      const psqlArgs = ["-h", dir, "-p", String(port), "-U", "postgres", "-d", database, ...args];
      const { stdout } = await run("psql", ["-X", "-v", "ON_ERROR_STOP=1", ...psqlArgs], {
        maxBuffer: 1 << 24,
      });
      return stdout;
    },
    async stop() {
      await asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(
        () => undefined,
      );
      await rm(dir, { recursive: true, force: true });
    },
  };
}
