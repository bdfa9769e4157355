#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
// DuckDB's allocator reads its settings when DuckDB is loaded, so they are set before the CLI,
// which loads DuckDB, is imported. A signal while it loads gets a word and an exit code
// (dist/cli/starting-signals.js, from src/cli/starting-signals.ts) until main() installs its own
// handlers, which it does before its first await.
import { catchSignalsWhileStarting } from "../dist/cli/starting-signals.js";
import { setDuckdbAllocator } from "../dist/load/duckdb-allocator.js";

const release = catchSignalsWhileStarting();
setDuckdbAllocator();
const { main } = await import("../dist/cli/main.js");
release();
process.exitCode = await main(process.argv.slice(2));
