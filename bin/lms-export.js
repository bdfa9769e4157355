#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
// DuckDB's allocator reads its settings when DuckDB is loaded, so they are set before the CLI,
// which loads DuckDB, is imported.
import { setDuckdbAllocator } from "../dist/load/duckdb-allocator.js";

setDuckdbAllocator();
const { main } = await import("../dist/cli/main.js");
process.exitCode = await main(process.argv.slice(2));
