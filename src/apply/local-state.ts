/**
 * What the local database holds for the records a change file names: the "before" of each edit,
 * the links that already exist for a create, and which referenced ids the database does not know.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { parseDateTimeMicros } from "../encode/parse-datetime.js";
import { quoteIdent } from "../load/ddl.js";
import { existingColumns, tableExists } from "../load/table-columns.js";
import { type CellValue, isoFromMicros } from "./cell-value.js";
import type { OpSpec } from "./ops.js";
import type { ChangeRow } from "./read-changes.js";

/** Field → stored value of one record, with its key. */
export type LocalRecord = Readonly<Record<string, CellValue>>;

export interface LocalState {
  /** Edits: the stored record per id. Creates: the stored link per `user:group`. */
  readonly records: ReadonlyMap<string, LocalRecord>;
  /** Ids the rows reference that the database does not know: "line N: ..." texts. */
  readonly unknown: readonly string[];
}

export const linkKey = (userId: unknown, groupId: unknown): string => `${userId}:${groupId}`;

/** A stored value as the file would write it (dates as UTC ISO text, integers as numbers). */
function fromStored(value: unknown, type: string): CellValue {
  if (value === null || value === undefined) return null;
  const text = String(value);
  if (type === "datetime") {
    const micros = parseDateTimeMicros(text);
    return micros === undefined ? text : isoFromMicros(micros);
  }
  if (type === "int" || type === "flag") return Number(text);
  return text;
}

async function readRecords(
  connection: DuckDBConnection,
  spec: OpSpec,
  key: string,
  fields: readonly { name: string; type: string }[],
  ids: readonly number[],
): Promise<Map<string, LocalRecord>> {
  const have = await existingColumns(connection, spec.table);
  const present = fields.filter((field) => have.has(field.name));
  const out = new Map<string, LocalRecord>();
  if (ids.length === 0 || !have.has(key)) return out;
  const list = present.map((field) => `CAST(${quoteIdent(field.name)} AS VARCHAR)`).join(", ");
  const reader = await connection.runAndReadAll(
    `SELECT ${list} FROM ${quoteIdent(spec.table)} WHERE ${quoteIdent(key)} IN (SELECT unnest(string_split($ids, ','))::BIGINT)`,
    { ids: ids.join(",") },
  );
  for (const row of reader.getRows()) {
    const record: Record<string, CellValue> = {};
    present.forEach((field, i) => {
      record[field.name] = fromStored(row[i], field.type);
    });
    out.set(spec.kind === "edit" ? String(record[key]) : "", record);
  }
  return out;
}

export async function knownIds(
  connection: DuckDBConnection,
  sql: string,
  ids: readonly number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const reader = await connection.runAndReadAll(sql, { ids: ids.join(",") });
  return new Set(reader.getRows().map((row) => Number(row[0])));
}

const IDS = "(SELECT unnest(string_split($ids, ','))::BIGINT)";

/**
 * Users the database knows: the roster's, and those its links and access records name. The
 * interface lists no users, so extract never fills a table of them: without a roster these are
 * all the users there are to know.
 */
const KNOWN_USERS = `SELECT user_id FROM "user" WHERE user_id IN ${IDS} UNION SELECT user_grp_user_id FROM user_grp WHERE user_grp_user_id IN ${IDS} UNION SELECT product_access_user_id FROM product_access WHERE product_access_user_id IN ${IDS}`;

async function createState(
  connection: DuckDBConnection,
  rows: readonly ChangeRow[],
  unit: string,
): Promise<LocalState> {
  const users = [...new Set(rows.map((row) => Number(row.set.get("user_grp_user_id"))))];
  const groups = [...new Set(rows.map((row) => Number(row.set.get("user_grp_grp_id"))))];
  const reader = await connection.runAndReadAll(
    `SELECT user_grp_id, user_grp_user_id, user_grp_grp_id, user_grp_group_admin FROM user_grp WHERE user_grp_user_id IN ${IDS}`,
    { ids: users.join(",") || "0" },
  );
  const records = new Map<string, LocalRecord>();
  for (const [id, user, group, admin] of reader.getRows()) {
    records.set(linkKey(user, group), {
      user_grp_id: Number(id),
      user_grp_user_id: Number(user),
      user_grp_grp_id: Number(group),
      user_grp_group_admin: admin === null ? null : Number(admin),
    });
  }
  const knownGroups = await knownIds(
    connection,
    `SELECT grp_id FROM grp WHERE grp_id IN ${IDS}`,
    groups,
  );
  const knownUsers = await knownIds(connection, KNOWN_USERS, users);
  const unknown: string[] = [];
  for (const row of rows) {
    const user = Number(row.set.get("user_grp_user_id"));
    const group = Number(row.set.get("user_grp_grp_id"));
    const where = `${unit} ${row.line}`;
    if (!knownGroups.has(group))
      unknown.push(`${where}: group ${group} is not in the local database`);
    if (!knownUsers.has(user)) unknown.push(`${where}: user ${user} is not in the local database`);
  }
  return { records, unknown };
}

/**
 * A user's values as the portal last answered them to an `apply`, from `_changes`. The interface
 * lists no users, so the database has no copy of the portal's: the `user` table is the roster,
 * what HR says, and comparing with it would leave out exactly the identifiers a file means to
 * push from HR to the portal ("unchanged", nothing sent). A user no `apply` edited has no known
 * values: every field the row sets is sent (an edit sent twice leaves the same state).
 */
async function portalUserValues(
  connection: DuckDBConnection,
  spec: OpSpec,
  ids: readonly number[],
): Promise<Map<string, LocalRecord>> {
  const out = new Map<string, LocalRecord>();
  if (ids.length === 0 || !(await tableExists(connection, "_changes"))) return out;
  const reader = await connection.runAndReadAll(
    `SELECT record_id, arg_max("after", "time")::VARCHAR FROM _changes
     WHERE op = $op AND outcome = 'applied' AND "after" IS NOT NULL
       AND record_id IN (SELECT unnest(string_split($ids, ','))::BIGINT)
     GROUP BY record_id`,
    { op: spec.op, ids: ids.join(",") },
  );
  for (const [id, after] of reader.getRows()) {
    const answered = JSON.parse(String(after)) as Record<string, unknown>;
    const record: Record<string, CellValue> = {};
    for (const field of spec.fields) {
      if (field.name in answered) record[field.name] = fromStored(answered[field.name], field.type);
    }
    out.set(String(id), record);
  }
  return out;
}

/** The local state the rows of a change file are compared with. */
export async function readLocalState(
  connection: DuckDBConnection,
  spec: OpSpec,
  rows: readonly ChangeRow[],
  unit: string,
): Promise<LocalState> {
  if (spec.kind === "create") return createState(connection, rows, unit);
  const key = spec.idColumn as string;
  const ids = rows.map((row) => row.id as number);
  const fields = [{ name: key, type: "int" }, ...spec.fields];
  const records =
    spec.resource === "user"
      ? await portalUserValues(connection, spec, ids)
      : await readRecords(connection, spec, key, fields, ids);
  // A user outside the roster is still known when extract read a link or access of theirs: only
  // their old values are missing, which the diff says.
  const known =
    spec.resource === "user" ? await knownIds(connection, KNOWN_USERS, ids) : new Set<number>();
  const unknown = rows
    .filter((row) => !records.has(String(row.id)) && !known.has(row.id as number))
    .map((row) => `${unit} ${row.line}: ${key} ${row.id} is not in the local database`);
  return { records, unknown };
}
