/**
 * Running a report over several portals exactly. The source's tables (views in `main`) stack
 * every portal's rows with a `portal` column; ids repeat from one portal to the next, so a query
 * joining those views by id would pair one portal's people with another's takes. Each portal
 * therefore also gets a schema of its own whose views (named like the tables) hold only its rows;
 * a report query runs once in each of them, with that schema as its search path, and the results
 * are stacked in a table, with a first `portal` column unless the query yields one itself. The
 * exporters then read that table like any query.
 *
 * A result is kept for the life of the source, by query and parameter values: a report mailed
 * per manager reads it once per recipient.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import { quoteIdent, quoteLiteral } from "../load/ddl.js";
import { type BoundQuery, describeColumns } from "./run-query.js";
import { sqlError } from "./sql-error.js";

/** The name of the in-memory database a view source's views live in. */
const CATALOG = "memory";
const RESULTS = "_portal_results";

export interface PortalScope {
  /** The portal's name, as the `portal` column holds it. */
  readonly name: string;
  /** The schema of its views. */
  readonly schema: string;
}

export class PortalScopes {
  private readonly results = new Map<string, string>();

  private constructor(readonly scopes: readonly PortalScope[]) {}

  /**
   * Creates a schema per portal with a view per view of `main`, filtered to that portal's rows
   * (the filter reaches the files or databases it comes from: a lake reads that portal's files
   * only), and the schema the stacked results go to.
   */
  static async create(setup: DuckDBConnection, portals: readonly string[]): Promise<PortalScopes> {
    const views = await setup.runAndReadAll(
      `SELECT view_name FROM duckdb_views()
       WHERE database_name = ${quoteLiteral(CATALOG)} AND schema_name = 'main' AND NOT internal
       ORDER BY view_name`,
    );
    const names = views.getRowsJS().map(([name]) => String(name));
    const scopes = portals.map((name, i) => ({ name, schema: `_portal_${i}` }));
    for (const scope of scopes) {
      await setup.run(`CREATE SCHEMA ${quoteIdent(scope.schema)}`);
      for (const view of names) {
        await setup.run(
          `CREATE VIEW ${quoteIdent(scope.schema)}.${quoteIdent(view)} AS
           SELECT * FROM ${CATALOG}.main.${quoteIdent(view)} WHERE portal = ${quoteLiteral(scope.name)}`,
        );
      }
    }
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
    let created = false;
    // Whether the query yields its own `portal` column: the same in every portal's views.
    let ownPortal: boolean | undefined;
    try {
      await this.inEach(connection, async (scope) => {
        ownPortal ??= (await describeColumns(connection, bound)).some((c) => c.name === "portal");
        // The prefix shares the query's first line, so DuckDB's line numbers stay the file's.
        const select = ownPortal
          ? `SELECT * FROM (${bound.sql}\n)`
          : `SELECT ${quoteLiteral(scope.name)} AS portal, * FROM (${bound.sql}\n)`;
        const sql = created
          ? `INSERT INTO ${table} BY NAME ${select}`
          : `CREATE TABLE ${table} AS ${select}`;
        try {
          await connection.run(sql, bound.values, bound.types);
        } catch (error) {
          const failure = sqlError(error, bound.query.file, "run");
          throw new LmsExportError(failure.code, `portal ${scope.name}: ${failure.message}`, {
            cause: error,
          });
        }
        created = true;
      });
    } catch (error) {
      if (created) await connection.run(`DROP TABLE IF EXISTS ${table}`);
      throw error;
    }
  }
}
