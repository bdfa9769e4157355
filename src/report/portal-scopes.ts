/**
 * Running a report over several portals exactly. The source's tables (views in `main`) stack
 * every portal's rows with a `portal` column; ids repeat from one portal to the next, so a query
 * joining those views by id would pair one portal's people with another's takes. Each portal
 * therefore also gets a schema of its own whose views (named like the tables) hold only its rows
 * and its own columns (portal-views.ts); a report query runs once in each of them, with that
 * schema as its search path, and the results are stacked in a table by column name, with a first
 * `portal` column unless the query yields one itself. The exporters then read that table like any
 * query.
 *
 * A result is kept for the life of the source, by query and parameter values: a report mailed
 * per manager reads it once per recipient.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import { quoteIdent, quoteLiteral } from "../load/ddl.js";
import { createPortalViews, type PortalScope, type PortalViewSources } from "./portal-views.js";
import { type BoundQuery, describeColumns } from "./run-query.js";
import { sqlError } from "./sql-error.js";

/** The name of the in-memory database a view source's views live in. */
const CATALOG = "memory";
const RESULTS = "_portal_results";

export type { PortalScope };

export class PortalScopes {
  private readonly results = new Map<string, string>();

  private constructor(readonly scopes: readonly PortalScope[]) {}

  /**
   * The portals' views (portal-views.ts: a schema per portal, reading its own tables only, and
   * the stacked ones in `main`), and the schema the stacked results go to.
   */
  static async create(setup: DuckDBConnection, sources: PortalViewSources): Promise<PortalScopes> {
    const scopes = await createPortalViews(setup, CATALOG, sources);
    await setup.run(`CREATE SCHEMA ${RESULTS}`);
    return new PortalScopes(scopes);
  }

  /**
   * Runs `each` once per portal with `connection`'s search path on that portal's views, in the
   * order the portals were given, and sets the path back however it ends.
   */
  async inEach<T>(
    connection: DuckDBConnection,
    each: (scope: PortalScope) => Promise<T>,
  ): Promise<T[]> {
    const answers: T[] = [];
    try {
      for (const scope of this.scopes) {
        await connection.run(`SET search_path = ${quoteLiteral(`${CATALOG}.${scope.schema}`)}`);
        answers.push(await each(scope));
      }
    } finally {
      await connection.run("RESET search_path");
    }
    return answers;
  }

  /** `bound` run in every portal, stacked: a query reading the stacked rows, with no parameters. */
  async stack(connection: DuckDBConnection, bound: BoundQuery): Promise<BoundQuery> {
    const params = [...bound.params].map(([n, v]) => `${n}=${v.text}`);
    const key = [bound.query.file, bound.sql, ...params].join("\0");
    let table = this.results.get(key);
    if (table === undefined) {
      table = `${CATALOG}.${RESULTS}.r${this.results.size + 1}`;
      await this.fill(connection, bound, table);
      this.results.set(key, table);
    }
    return { ...bound, sql: `SELECT * FROM ${table}`, values: {}, types: {} };
  }

  private async fill(connection: DuckDBConnection, bound: BoundQuery, table: string) {
    // The result's columns so far: a later portal's own (a roster column the others lack) are
    // added after them, so the stack is the union by name in the portals' order.
    let columns: Set<string> | undefined;
    try {
      await this.inEach(connection, async (scope) => {
        try {
          columns = await this.fillFrom(connection, bound, table, scope, columns);
        } catch (error) {
          const failure =
            error instanceof LmsExportError ? error : sqlError(error, bound.query.file, "run");
          throw new LmsExportError(failure.code, `portal ${scope.name}: ${failure.message}`, {
            cause: error,
          });
        }
      });
    } catch (error) {
      if (columns !== undefined) await connection.run(`DROP TABLE IF EXISTS ${table}`);
      throw error;
    }
  }

  /**
   * Adds one portal's result to `table` (created by the first portal): the query's columns `table`
   * lacks so far are added first. Returns the table's columns now.
   */
  private async fillFrom(
    connection: DuckDBConnection,
    bound: BoundQuery,
    table: string,
    scope: PortalScope,
    columns: Set<string> | undefined,
  ): Promise<Set<string>> {
    const described = await describeColumns(connection, bound);
    // A query that yields its own `portal` column (every portal's views have one) keeps it.
    const ownPortal = described.some((c) => c.name === "portal");
    // The prefix shares the query's first line, so DuckDB's line numbers stay the file's.
    const select = ownPortal
      ? `SELECT * FROM (${bound.sql}\n)`
      : `SELECT ${quoteLiteral(scope.name)} AS portal, * FROM (${bound.sql}\n)`;
    if (columns === undefined) {
      await connection.run(`CREATE TABLE ${table} AS ${select}`, bound.values, bound.types);
      return new Set(["portal", ...described.map((c) => c.name)]);
    }
    for (const column of described.filter((c) => !columns.has(c.name))) {
      await connection.run(
        `ALTER TABLE ${table} ADD COLUMN ${quoteIdent(column.name)} ${column.type.toString()}`,
      );
      columns.add(column.name);
    }
    await connection.run(`INSERT INTO ${table} BY NAME ${select}`, bound.values, bound.types);
    return columns;
  }
}
