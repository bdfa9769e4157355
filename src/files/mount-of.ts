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

/** File systems of the kernel's own files (process and device tables, control groups). */
const SYSTEM_TYPES = new Set([
  "autofs",
  "binfmt_misc",
  "bpf",
  "cgroup",
  "cgroup2",
  "configfs",
  "debugfs",
  "devpts",
  "devtmpfs",
  "efivarfs",
  "fusectl",
  "hugetlbfs",
  "mqueue",
  "nsfs",
  "proc",
  "pstore",
  "securityfs",
  "selinuxfs",
  "sysfs",
  "tracefs",
]);

/** "(sysfs)", or "(sysfs mounted at /sys)" for a folder below the mount point. */
function mountNote(folder: string, mount: Mount): string {
  const real = resolve(folder);
  return mount.point === real ? `(${mount.type})` : `(${mount.type} mounted at ${mount.point})`;
}

/**
 * Why no file can be made in `folder` whatever its permission bits say, as its mount tells (to
 * follow "directory /sys"): "is a system folder (sysfs)", or "is on a read-only file system
 * (…)" when its mount is read-only or `errno` is EROFS; undefined when the mount tells nothing.
 */
export function mountRefusal(folder: string, errno?: string): string | undefined {
  const mount = mountOf(folder);
  if (mount !== undefined && SYSTEM_TYPES.has(mount.type)) {
    return `is a system folder ${mountNote(folder, mount)}`;
  }
  if (errno === "EROFS" || mount?.readOnly) {
    return `is on a read-only file system${mount === undefined ? "" : ` ${mountNote(folder, mount)}`}`;
  }
  return undefined;
}
