/**
 * The options of every command that writes reports (`report`, `run`): the catalog, parameters,
 * output folder, CSV and Excel text handling, file access for SQL, waiting for the database and
 * mail. One group, so the two commands cannot drift apart.
 */
import type { Argv } from "yargs";
import { withCatalogOption } from "./catalog-option.js";
import { withCsvBomOption } from "./csv-bom-option.js";
import { withFileAccessOption } from "./file-access-option.js";
import { withFormulaOption } from "./formula-option.js";
import { withMailOptions } from "./mail-options.js";
import { withOutputOptions, withParamOption } from "./options.js";
import { withWaitOption } from "./wait-option.js";

export function withReportWritingOptions<T>(y: Argv<T>) {
  return withMailOptions(
    withWaitOption(
      withFileAccessOption(
        withFormulaOption(
          withCsvBomOption(withCatalogOption(withParamOption(withOutputOptions(y)))),
          "CSV and Excel text cells",
        ),
      ),
    ),
  );
}
