/**
 * Naming the place that ran out of room, for messages: "no space left on /data (12 KiB free)".
 * DuckDB reports a full disk as "No space left on device" while writing, and as "Bad file
 * descriptor" when a later open tries to replay its write-ahead log into a file it cannot grow.
 */
import { statfsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { mountOf } from "../files/mount-of.js";

/** The mount point holding `path`, or its folder when that is "/" or unknown. */
export function mountPointOf(path: string): string {
  const folder = dirname(resolve(path));
  const point = mountOf(folder)?.point;
  return point === undefined || point === "/" ? folder : point;
}

function humanBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** "no space left on <mount point> (N free)" for the place holding `path`. */
export function noSpaceText(path: string): string {
  const place = mountPointOf(path);
  try {
    const stats = statfsSync(dirname(resolve(path)));
    return `no space left on ${place} (${humanBytes(stats.bavail * stats.bsize)} free)`;
  } catch {
    return `no space left on ${place}`;
  }
}

/** Whether a DuckDB message reads like a full disk. */
export function looksLikeFullDisk(message: string): boolean {
  return /No space left on device|disk is full|Bad file descriptor/i.test(message);
}
