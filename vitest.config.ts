import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Tests start real HTTP servers and DuckDB files; on a 2-core machine a little patience
    // beats flaky timeouts.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time, sharing each worker's loaded modules (as the fast tier does, see
    // vitest.fast.config.ts): vitest's default of one worker per core less one ran the suite one
    // file at a time on a 2-core machine, and loading the sources again for every file took 250 s
    // of its 1,726 s. Two workers, not isolated, ran it in 1,146 s on the same kind of machine.
    // Tests that kill or time a process leave it room: none comes within half of its timeout.
    maxWorkers: 2,
    isolate: false,
    // What the command line keeps between runs (the Authorization form each portal accepted,
    // src/config/state-files.ts) goes here, not into the home folder, for the CLI children too.
    env: { XDG_STATE_HOME: join(tmpdir(), "lms-export-test-state") },
  },
});
