/**
 * A roster as HR systems write it: UTF-8 with a byte order mark, CRLF line ends, fields quoted
 * only when they must be (the delimiter, a quote or a line break inside), accented and CJK
 * names, and a name that starts with `=`.
 */

export interface Person {
  user_id: number;
  firstname: string;
  lastname: string;
  email: string;
  user_status: string;
  user_organisation_identifier: string;
  department: string;
  manager_email: string | null;
  notes: string | null;
}

export const PEOPLE: readonly Person[] = [
  {
    user_id: 1001,
    firstname: "Zoë",
    lastname: "O'Brien, Jr.",
    email: "zoe.obrien@example.org",
    user_status: "active",
    user_organisation_identifier: "E-0001",
    department: 'Sales "EMEA"',
    manager_email: "ann.lee@example.org",
    notes: "Joined in March\r\nPart time",
  },
  {
    user_id: 1002,
    firstname: "José",
    lastname: "Núñez",
    email: "jose.nunez@example.org",
    user_status: "active",
    user_organisation_identifier: "E-0002",
    department: "R&D; Lab",
    manager_email: null,
    notes: null,
  },
  {
    user_id: 1003,
    firstname: "美咲",
    lastname: "佐藤",
    email: "misaki.sato@example.jp",
    user_status: "inactive",
    user_organisation_identifier: "E-0003",
    department: "東京 | Tokyo",
    manager_email: "zoe.obrien@example.org",
    notes: "Tab\there",
  },
  {
    user_id: 1004,
    firstname: '=HYPERLINK("http://x.example","click")',
    lastname: "Formula",
    email: "formula@example.org",
    user_status: "active",
    user_organisation_identifier: "E-0004",
    department: "Finance",
    manager_email: "ann.lee@example.org",
    notes: null,
  },
];

/** The headers an HR export uses, in the order of {@link FIELDS}. */
export const HEADERS = [
  "User ID",
  "First Name",
  "Surname",
  "E-mail",
  "Status",
  "Employee Number",
  "Department",
  "Manager Email",
  "Notes",
] as const;

export const FIELDS = [
  "user_id",
  "firstname",
  "lastname",
  "email",
  "user_status",
  "user_organisation_identifier",
  "department",
  "manager_email",
  "notes",
] as const satisfies readonly (keyof Person)[];

function field(value: string | number | null, delimiter: string): string {
  const text = value === null ? "" : String(value);
  const needsQuotes =
    text.includes(delimiter) || text.includes('"') || text.includes("\n") || text.includes("\r");
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The roster as CSV bytes with `delimiter`: BOM, CRLF, minimal quoting. */
export function hrCsv(delimiter: string, people: readonly Person[] = PEOPLE): Buffer {
  const lines = [HEADERS.map((h) => field(h, delimiter)).join(delimiter)];
  for (const person of people) {
    lines.push(FIELDS.map((name) => field(person[name], delimiter)).join(delimiter));
  }
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines.join("\r\n")}\r\n`)]);
}

/** What the `user` table should hold for `people`, as read back with getRowObjectsJS. */
export function expectedRows(people: readonly Person[] = PEOPLE): Record<string, unknown>[] {
  return people.map((person) => ({ ...person, user_id: BigInt(person.user_id) }));
}
