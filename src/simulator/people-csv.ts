/**
 * The simulated portal's people as an HR roster file (CSV, RFC 4180): the names, e-mails,
 * departments and managers that a real portal's interface never lists, so that a demo's reports
 * can name people the way `roster import` of a real HR export does. The first person of each
 * department heads it and is everyone else's manager there; heads have none (so the compliance
 * query falls back to their groups' admins, as for anyone a real roster leaves without one).
 */
import { writeWhole } from "../files/write-whole.js";
import type { SimulatorData } from "./data.js";

const HEADER = [
  "User ID",
  "First name",
  "Last name",
  "E-mail",
  "Status",
  "Department",
  "Manager Email",
];

function field(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function department(properties: unknown): unknown {
  return typeof properties === "object" && properties !== null
    ? (properties as Record<string, unknown>).department
    : undefined;
}

/** Writes every person of `data` to `path`; answers how many. */
export async function writePeopleCsv(data: SimulatorData, path: string): Promise<number> {
  const people = data.list("user");
  const heads = new Map<unknown, unknown>();
  for (const p of people) {
    const unit = department(p.properties);
    if (unit !== undefined && !heads.has(unit)) heads.set(unit, p.email);
  }
  const lines = [HEADER.join(",")];
  for (const p of people) {
    const unit = department(p.properties);
    const manager = heads.get(unit);
    const row = [
      p.user_id,
      p.firstname,
      p.lastname,
      p.email,
      p.user_status,
      unit,
      manager === p.email ? undefined : manager,
    ];
    lines.push(row.map(field).join(","));
  }
  // Whole or not at all: a killed demo must not leave half a roster for the next import.
  await writeWhole(path, `${lines.join("\r\n")}\r\n`);
  return people.length;
}
