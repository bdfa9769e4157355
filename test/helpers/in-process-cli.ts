/** main() run in-process with its own streams: exit code and what it printed. */
import { Writable } from "node:stream";
import type { CliContext } from "../../src/cli/context.js";
import { main } from "../../src/cli/main.js";

function collector(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/** Runs `args` in `cwd` with `env` (JSON logs, warnings only, unless `env` says otherwise). */
export async function runCli(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = collector();
  const stderr = collector();
  const ctx: CliContext = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: { LMS_LOG_FORMAT: "json", LMS_QUIET: "1", ...env },
    cwd,
    signal: new AbortController().signal,
  };
  const code = await main(args, ctx);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
