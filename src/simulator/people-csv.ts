/**
 * The simulated portal's people as an HR roster file (CSV, RFC 4180): the names, e-mails and
 * departments that a real portal's interface never lists, so that a demo's reports can name
 * people the way `roster import` of a real HR export does.
 */
import { writeWhole } from "../files/write-whole.js";
import type { SimulatorData } from "./data.js";

const HEADER = ["User ID", "First name", "Last name", "E-mail", "Status", "Department"];

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
  const lines = [HEADER.join(",")];
  for (const p of people) {
    const row = [
      p.user_id,
      p.firstname,
      p.lastname,
      p.email,
      p.user_status,
      department(p.properties),
    ];
    lines.push(row.map(field).join(","));
  }
  // Whole or not at all: a killed demo must not leave half a roster for the next import.
  await writeWhole(path, `${lines.join("\r\n")}\r\n`);
  return people.length;
}
