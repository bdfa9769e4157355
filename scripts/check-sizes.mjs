#!/usr/bin/env node
/**
 * `npm run check:layers` also runs this: fails when a file of src is over 400 lines or a function
 * in one has over 60 lines of code (nested functions included; blank lines
 * and comment-only lines not counted, as ESLint's max-lines-per-function with skipBlankLines and
 * skipComments: a comment saying why must not push a function over). Parses with the TypeScript
 * compiler, so braces in strings and comments do not count. An argument names another project
 * folder to check (the tests use one).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { ROOT, sourceFiles } from "./project-files.mjs";

const FOLDERS = ["src"];
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 60;

/** The name a function is known by in a message: its own, its variable's, or its property's. */
function nameOf(node) {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
    return parent.name.getText();
  }
  return "(anonymous)";
}

/** The lines holding code (not blank, not only comment): every line a token of the tree spans. */
function codeLines(source) {
  const lines = new Set();
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node) => {
    const children = node.getChildren(source);
    if (children.length === 0) {
      // A token may span lines (a template literal): each of them holds code.
      for (let line = lineOf(node.getStart(source)); line <= lineOf(node.getEnd()); line++) {
        lines.add(line);
      }
      return;
    }
    for (const child of children) visit(child);
  };
  visit(source);
  return lines;
}

function longFunctions(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const code = codeLines(source);
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      let lines = 0;
      for (let line = lineOf(node.getStart(source)); line <= lineOf(node.getEnd()); line++) {
        if (code.has(line)) lines += 1;
      }
      if (lines > MAX_FUNCTION_LINES) {
        found.push(`${nameOf(node)} (line ${lineOf(node.getStart(source)) + 1}) has ${lines}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const problems = [];
let files = 0;
for (const folder of FOLDERS) {
  if (!existsSync(join(ROOT, folder))) continue;
  for (const file of sourceFiles(join(ROOT, folder))) {
    files += 1;
    const text = readFileSync(file, "utf8");
    const name = relative(ROOT, file);
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > MAX_FILE_LINES) {
      problems.push(`${name} has ${lines} lines (at most ${MAX_FILE_LINES})`);
    }
    for (const long of longFunctions(file, text)) {
      problems.push(`${name}: ${long} lines of code (at most ${MAX_FUNCTION_LINES})`);
    }
  }
}

for (const line of problems) console.log(line);
if (problems.length > 0) {
  console.log(`check:sizes: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`check:sizes: ${files} files in ${FOLDERS.join(", ")}, none too long`);
