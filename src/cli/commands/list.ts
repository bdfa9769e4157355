import type { Argv } from "yargs";
import type { Catalog, QueryDef, QueryParam } from "../../report/catalog.js";
import { paramHint } from "../../report/params.js";
import { loadCatalogFor, withCatalogOption } from "../catalog-option.js";
import type { CliContext } from "../context.js";

const WIDTH = 100;

function wrap(text: string, indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== "" && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(indent + line);
  return lines.join("\n");
}

function paramLine(param: QueryParam): string {
  const shown =
    param.default === undefined
      ? "required"
      : param.default === null || param.default === ""
        ? "default: none"
        : `default: ${String(param.default)}`;
  return `--param ${param.name}=${param.type.toUpperCase()} (${shown}; ${paramHint(param)}) ${param.description}`;
}

/**
 * The definitions that cannot be loaded, first: whoever lists the catalog is likely the one who
 * can fix them, and commands naming them fail until then.
 */
function brokenLines(catalog: Catalog): string[] {
  if (catalog.broken.size === 0) return [];
  const out = ["Cannot be loaded (commands naming them fail until they are fixed):", ""];
  for (const broken of catalog.broken.values()) {
    out.push(`  ${broken.name}  (${broken.kind}) ${broken.file}`);
    out.push(wrap(broken.error.message, "      "), "");
  }
  return out;
}

/** The queries `list` shows: a name both a report's and a query's is listed with its error. */
function runnableQueries(catalog: Catalog): QueryDef[] {
  return [...catalog.queries.values()].filter((query) => !catalog.broken.has(query.name));
}

/** The catalog as text: broken definitions, reports (what most people run), then queries. */
export function describeCatalog(catalog: Catalog): string {
  const out: string[] = [...brokenLines(catalog), "Reports (lms-export report NAME):", ""];
  if (catalog.reports.size === 0) out.push("  (none)", "");
  for (const report of catalog.reports.values()) {
    out.push(`  ${report.name}  ${report.title}`);
    out.push(wrap(report.description, "      "));
    out.push(
      `      queries: ${report.queries.join(", ")}; formats: ${report.formats.join(", ")}; file: ${report.fileName}`,
    );
    const params = Object.entries(report.params).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    if (params.length > 0) out.push(`      sets: ${params.join(", ")}`);
    out.push("");
  }
  out.push("Queries (lms-export report NAME, or inside a report):", "");
  const queries = runnableQueries(catalog);
  if (queries.length === 0) out.push("  (none)");
  for (const query of queries) {
    out.push(`  ${query.name}  ${query.title}`);
    out.push(wrap(query.description, "      "));
    for (const param of query.params) out.push(wrap(paramLine(param), "      "));
    out.push("");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

/** `list`: the reports and queries of the catalog, with descriptions and parameters. */
export function registerList(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "list",
    "Show the reports and queries, with their descriptions and parameters",
    (y) =>
      withCatalogOption(y)
        .option("json", {
          type: "boolean",
          description: "Print the catalog as JSON (names, titles, descriptions, parameters)",
        })
        .example("$0 list", "every report and query with its parameters")
        .example("$0 list --json | jq '.queries[].name'", "the query names, for scripts"),
    async (args) => {
      const catalog = await loadCatalogFor(args.catalog, ctx);
      if (args.json === true) {
        const json = {
          reports: [...catalog.reports.values()],
          queries: runnableQueries(catalog).map(({ sql: _sql, ...rest }) => rest),
          broken: [...catalog.broken.values()].map(({ error, ...rest }) => ({
            ...rest,
            error: error.message,
          })),
        };
        ctx.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
        return;
      }
      ctx.stdout.write(describeCatalog(catalog));
    },
  );
}
