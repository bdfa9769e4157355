/** main() run in this process with its own streams, environment and working directory. */
import { Writable } from "node:stream";
import { main } from "../../src/cli/main.js";

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

function sink(add: (text: string) => void): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      add(String(chunk));
      done();
    },
  });
}

export async function runInProcess(
  args: readonly string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<InProcessRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    env,
    cwd,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}
