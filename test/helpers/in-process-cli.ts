/** main() run in the test's own process with a test context: what it printed and its exit code. */
import { Writable } from "node:stream";
import type { CliContext } from "../../src/cli/context.js";
import { main } from "../../src/cli/main.js";

function collector() {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `args` with `cwd` as working directory and `env` as the whole environment. */
export async function runInProcess(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<InProcessRun> {
  const stdout = collector();
  const stderr = collector();
  const ctx: CliContext = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env,
    cwd,
    signal: new AbortController().signal,
  };
  const code = await main(args, ctx);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
