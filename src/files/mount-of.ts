/**
 * The mount a folder is on, as the kernel lists it in /proc/self/mounts: where it is mounted, its
 * file system type and whether it is mounted read-only. Messages need it where the errno alone
 * misleads: root is refused in /sys with EACCES, as if permissions could be fixed there.
 */
import { readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";

export interface Mount {
  /** The mount point, e.g. "/sys". */
  readonly point: string;
  /** The file system type, e.g. "ext4", "sysfs", "proc". */
  readonly type: string;
  readonly readOnly: boolean;
}

/** /proc/mounts writes a space in a path as \040, a tab as \011, a backslash as \134. */
function unescapePath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );
}

function mounts(): Mount[] {
  try {
    return readFileSync("/proc/self/mounts", "utf8")
      .split("\n")
      .map((line) => line.split(" "))
      .filter((fields) => fields.length >= 4)
      .map(([, point = "", type = "", options = ""]) => ({
        point: unescapePath(point),
        type,
        readOnly: options.split(",").includes("ro"),
      }));
  } catch {
    // No /proc (not Linux): nothing to tell.
    return [];
  }
}

/**
 * The mount holding `folder` (its real path, links resolved when it exists): the longest mount
 * point it is inside, the last one listed when several are mounted there (the one on top).
 */
export function mountOf(folder: string): Mount | undefined {
  let real = resolve(folder);
  try {
    real = realpathSync(real);
  } catch {
    // Not there (yet): its path is the best guess.
  }
  let best: Mount | undefined;
  for (const mount of mounts()) {
    const { point } = mount;
    const inside = real === point || real.startsWith(point.endsWith("/") ? point : `${point}/`);
    if (inside && point.length >= (best?.point.length ?? 0)) best = mount;
  }
  return best;
}
