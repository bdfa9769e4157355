/**
 * The password file format libpq reads (`PGPASSFILE`, else `~/.pgpass`): lines of
 * `host:port:database:user:password`, `*` matching anything, `\:` and `\\` escaping. The first
 * matching line wins, as in libpq.
 */
import { readFile } from "node:fs/promises";

export interface PgpassTarget {
  host: string;
  port: string;
  database: string;
  user: string;
}

/** A line split on unescaped `:`, with `\:` and `\\` unescaped. */
function fields(line: string): string[] {
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\\" && i + 1 < line.length) {
      current += line[++i];
    } else if (c === ":") {
      out.push(current);
      current = "";
    } else {
      current += c;
    }
  }
  out.push(current);
  return out;
}

/** The password of the first line of `text` that matches `target`, if any. */
export function findPgpassPassword(text: string, target: PgpassTarget): string | undefined {
  const wanted = [target.host, target.port, target.database, target.user];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const parts = fields(line);
    if (parts.length < 5) continue;
    if (wanted.every((value, i) => parts[i] === "*" || parts[i] === value)) {
      return parts.slice(4).join(":");
    }
  }
  return undefined;
}

/** Reads `path` and looks `target` up; a missing file answers undefined. */
export async function readPgpassPassword(
  path: string,
  target: PgpassTarget,
): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return findPgpassPassword(text, target);
}
