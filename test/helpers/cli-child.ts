/**
 * The CLI as a child process straight from the TypeScript sources (run with
 * `node --import test/helpers/register-ts.mjs test/helpers/cli-child.ts ARGS`), so tests that
 * kill or time a real process do not depend on a fresh build in dist/.
 */
import { main } from "../../src/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
