/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time per function and per file, largest
 * first. Usage: `node dist/bench/profile-summary.js <file.cpuprofile> [top]`.
 *
 * Self time is what a function spent in its own code (not in what it called); summed over the
 * samples, it names the code the thread was busy in. "(garbage collector)", "(program)" (native
 * work outside JavaScript, e.g. DuckDB calls and undici's parser) and "(idle)" appear as such.
 */
import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** The parts of a `.cpuprofile` (DevTools' Profiler.Profile) read here. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface SelfTime {
  readonly name: string;
  readonly file: string;
  readonly ms: number;
  /** Share of the non-idle time. */
  readonly share: number;
}

export interface ProfileSummary {
  readonly busyMs: number;
  readonly idleMs: number;
  readonly functions: SelfTime[];
  readonly files: SelfTime[];
}

/** Shortens a script URL: a path inside node_modules or the project, or the URL as it is. */
function fileOf(url: string): string {
  if (url === "") return "";
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  const modules = path.lastIndexOf("node_modules/");
  if (modules >= 0) return path.slice(modules + "node_modules/".length);
  return path.startsWith("/") ? relative(process.cwd(), path) : path;
}

function ranked(totals: Map<string, { name: string; file: string; ms: number }>, busy: number) {
  return [...totals.values()]
    .sort((a, b) => b.ms - a.ms)
    .map((entry) => ({ ...entry, share: busy > 0 ? entry.ms / busy : 0 }));
}

export function summariseProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const functions = new Map<string, { name: string; file: string; ms: number }>();
  const files = new Map<string, { name: string; file: string; ms: number }>();
  let idle = 0;
  let busy = 0;
  (profile.samples ?? []).forEach((id, index) => {
    // timeDeltas[i] is the time before sample i; it is charged to sample i, as DevTools does.
    const ms = (profile.timeDeltas?.[index] ?? 0) / 1000;
    const frame = byId.get(id)?.callFrame;
    const name = frame?.functionName || "(anonymous)";
    if (name === "(idle)") {
      idle += ms;
      return;
    }
    busy += ms;
    const file = fileOf(frame?.url ?? "");
    const key = `${name}\u0000${file}\u0000${frame?.lineNumber ?? -1}`;
    const entry = functions.get(key) ?? { name, file, ms: 0 };
    entry.ms += ms;
    functions.set(key, entry);
    const fileKey = file === "" ? name : file;
    const perFile = files.get(fileKey) ?? { name: fileKey, file, ms: 0 };
    perFile.ms += ms;
    files.set(fileKey, perFile);
  });
  return {
    busyMs: busy,
    idleMs: idle,
    functions: ranked(functions, busy),
    files: ranked(files, busy),
  };
}

function table(title: string, rows: readonly SelfTime[], top: number): string {
  const lines = [`${title}`, "| self % | ms | function | file |", "| ---: | ---: | --- | --- |"];
  for (const row of rows.slice(0, top)) {
    lines.push(
      `| ${(row.share * 100).toFixed(1)} | ${row.ms.toFixed(0)} | ${row.name} | ${row.file} |`,
    );
  }
  return lines.join("\n");
}

const [, script, path, topText] = process.argv;
if (script && fileURLToPath(import.meta.url) === script && path) {
  const top = Number(topText ?? 25);
  const summary = summariseProfile(JSON.parse(await readFile(path, "utf8")) as CpuProfile);
  process.stdout.write(
    `busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms\n\n` +
      `${table("By function:", summary.functions, top)}\n\n` +
      `${table("By file:", summary.files, top)}\n`,
  );
}
