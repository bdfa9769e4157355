#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
// DuckDB's allocator reads its settings when DuckDB is loaded, so they are set before the CLI,
// which loads DuckDB, is imported. A signal while it loads gets a word and an exit code, and
// one on its way when main() takes over stops the command (dist/cli/launch.js, from
// src/cli/launch.ts and src/cli/starting-signals.ts).
import { launch } from "../dist/cli/launch.js";
import { setDuckdbAllocator } from "../dist/load/duckdb-allocator.js";

process.exitCode = await launch(process.argv.slice(2), () => {
  setDuckdbAllocator(process.argv.slice(2));
  return import("../dist/cli/main.js");
});
