/**
 * Node module hooks that let a child process run the project's TypeScript sources directly
 * (tests spawn real processes to hold locks, run as another user, or be killed mid-transaction).
 * Types are stripped with the project's own TypeScript compiler; `./x.js` imports resolve to
 * `./x.ts` the way the NodeNext build maps them.
 *
 * Each file's JavaScript is kept under node_modules/.cache, named by a hash of its source: a
 * child that transpiled every module again spent 4 to 5 s of a 2-core machine before its first
 * line, and the suite starts hundreds of them. The compiler itself is loaded only on a miss.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Changes whenever the transpiling below does, so that no older output is used. */
const FLAVOUR = "esnext-es2022-verbatim-1";
const CACHE = fileURLToPath(new URL("../../node_modules/.cache/lms-export-ts/", import.meta.url));

export async function resolve(specifier, context, nextResolve) {
  if (
    context.parentURL?.endsWith(".ts") &&
    (specifier.startsWith("./") || specifier.startsWith("../")) &&
    specifier.endsWith(".js")
  ) {
    const candidate = new URL(specifier.replace(/\.js$/, ".ts"), context.parentURL);
    if (existsSync(fileURLToPath(candidate))) {
      return { url: candidate.href, shortCircuit: true };
    }
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith(".ts")) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = readFileSync(path, "utf8");
  const key = createHash("sha256").update(FLAVOUR).update(path).update(source).digest("hex");
  const cached = join(CACHE, `${key}.js`);
  if (existsSync(cached)) {
    return { format: "module", source: readFileSync(cached, "utf8"), shortCircuit: true };
  }
  const output = await transpile(source, path);
  try {
    // Written aside and renamed: children running at once never read half a file.
    mkdirSync(CACHE, { recursive: true });
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, output);
    renameSync(partial, cached);
  } catch {
    // A child running as another user may not write there; it only misses the cache.
  }
  return { format: "module", source: output, shortCircuit: true };
}

async function transpile(source, fileName) {
  const { default: ts } = await import("typescript");
  return ts.transpileModule(source, {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      sourceMap: false,
    },
  }).outputText;
}
