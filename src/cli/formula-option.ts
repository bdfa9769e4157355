/**
 * --neutralise-formulas / --no-neutralise-formulas, shared by every command that writes text a
 * spreadsheet may open. Unlike the options of options.ts it has a yargs default (true): neither
 * the environment nor the config file sets it, so nothing else could fill it in.
 */
import type { Argv } from "yargs";

/**
 * Adds the boolean `neutralise-formulas` option (default true). `cells` names what the command
 * writes that gets the prefix, e.g. "CSV and Excel text cells".
 */
export function withFormulaOption<T>(y: Argv<T>, cells: string) {
  return y.option("neutralise-formulas", {
    type: "boolean",
    default: true,
    description: `Prefix ${cells} starting with = + - @ tab CR LF with ' so spreadsheets never run them; --no-neutralise-formulas writes them as they are (only if you know why)`,
  });
}
