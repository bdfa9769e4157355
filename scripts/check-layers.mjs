#!/usr/bin/env node
/**
 * `npm run check:layers`: fails when a module of src/ imports one of a higher layer, when a
 * stage imports what it must not know of (DuckDB in the client, the HTTP client in reports), or
 * when imports form a cycle. Reads the import lines only: no dependency, no compilation.
 *
 * Layers, lowest first; a folder may import its own layer and those below it. Folders not named
 * here count as stages (layer 3), so a new stage needs no edit to pass. An argument names another
 * project folder to check (the tests use one).
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT, sourceFiles } from "./project-files.mjs";

const SRC = join(ROOT, "src");

const LAYERS = {
  errors: 0,
  resources: 0,
  log: 0,
  security: 0,
  files: 0,
  text: 0,
  api: 1,
  encode: 1,
  config: 1,
  load: 2,
  extract: 3,
  report: 3,
  simulator: 3,
  cli: 4,
  bench: 4,
};
const STAGE_LAYER = 3;

/** Imports a folder must never make, whatever the layers say: [folder, pattern, why]. */
const FORBIDDEN = [
  ["api", /^@duckdb\//, "the client never touches DuckDB"],
  ["api", /^src\/load\//, "the client never touches the database"],
  ["report", /^undici$/, "reports never use the HTTP client"],
  ["report", /^src\/api\//, "reports never use the HTTP client"],
];

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm;

/** Specifiers a file imports: `src/...` paths for its own modules, package names otherwise. */
function importsOf(file) {
  const text = readFileSync(file, "utf8");
  const found = new Set();
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (spec.startsWith(".")) {
      const target = resolve(dirname(file), spec).replace(/\.js$/, ".ts");
      found.add(relative(ROOT, target));
    } else if (!spec.startsWith("node:")) {
      found.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
    }
  }
  return [...found];
}

/** The folder under src/ a module belongs to (or its file name, for a file at the top). */
const area = (path) => path.split("/")[1];
const layerOf = (name) => LAYERS[name] ?? STAGE_LAYER;

/** Strongly connected components of more than one module, or a module importing itself. */
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node), index.get(to)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const graph = new Map();
for (const file of sourceFiles(SRC)) graph.set(relative(ROOT, file), importsOf(file));

const problems = [];
for (const [from, targets] of graph) {
  const fromArea = area(from);
  for (const target of targets) {
    for (const [folder, pattern, why] of FORBIDDEN) {
      if (fromArea === folder && pattern.test(target)) {
        problems.push(`${from} imports ${target}: ${why}`);
      }
    }
    if (!target.startsWith("src/")) continue;
    const toArea = area(target);
    if (layerOf(toArea) > layerOf(fromArea)) {
      problems.push(
        `${from} imports ${target}: ${fromArea} (layer ${layerOf(fromArea)}) must not depend on ${toArea} (layer ${layerOf(toArea)})`,
      );
    }
  }
}
for (const component of cycles(graph)) problems.push(`import cycle: ${component.join(" <-> ")}`);

for (const line of problems) console.log(line);
if (problems.length > 0) {
  console.log(`check:layers: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`check:layers: ${graph.size} modules, no layer crossed, no cycle`);
