/** Runs the CLI in-process (main with a test context) in a folder holding the mail dataset. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type InProcessRun, runInProcess } from "../helpers/in-process-cli.js";
import { createMailDatabase, writeMailCatalog } from "./mail-dataset.js";
import { type SmtpFixture, startSmtp } from "./smtp-fixture.js";

export type CliRun = InProcessRun;

/** A temporary folder with lms.duckdb (the mail dataset) and the catalog folder `cat`. */
export async function mailWorkspace(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "lms-mail-"));
  await createMailDatabase(join(dir, "lms.duckdb"));
  await writeMailCatalog(join(dir, "cat"));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The CLI run in-process in `dir` with `env` as its whole environment; `signal` is its Ctrl-C. */
export function runCliIn(
  dir: string,
  args: readonly string[],
  env: Record<string, string>,
  signal?: AbortSignal,
): Promise<CliRun> {
  return runInProcess(args, dir, env, signal);
}

/** `report NAME --catalog cat --db lms.duckdb --log-format json` plus `extra`. */
export function reportArgs(name: string, ...extra: string[]): string[] {
  return [
    "report",
    name,
    "--catalog",
    "cat",
    "--db",
    "lms.duckdb",
    "--log-format",
    "json",
    ...extra,
  ];
}

/**
 * A suite's workspace (made before its tests, removed after) and SMTP servers started by its
 * tests, each closed after its test.
 */
export function useMailWorkspace(): {
  readonly dir: string;
  smtp(options?: Parameters<typeof startSmtp>[0]): Promise<SmtpFixture>;
  /** Runs the CLI with `args` against a fresh SMTP server (`env` given its URL), then closes it. */
  mailed(
    args: readonly string[],
    env: (url: string) => Record<string, string>,
  ): Promise<{ run: CliRun; received: SmtpFixture["received"] }>;
} {
  let dir = "";
  let remove: (() => Promise<void>) | undefined;
  const servers: SmtpFixture[] = [];
  beforeAll(async () => {
    ({ dir, remove } = await mailWorkspace());
  });
  afterAll(async () => {
    await remove?.();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return {
    get dir() {
      return dir;
    },
    async smtp(options) {
      const server = await startSmtp(options);
      servers.push(server);
      return server;
    },
    async mailed(args, env) {
      const server = await this.smtp();
      const run = await runCliIn(dir, args, env(server.url));
      await server.close();
      return { run, received: server.received };
    },
  };
}
