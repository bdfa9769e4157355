/**
 * --csv-bom: CSV files for people who open them in Excel on Windows, which reads a CSV as UTF-8
 * ("Sécurité", not "SÃ©curitÃ©") only when it starts with a byte-order mark. Data CSVs for
 * programs stay without one unless asked; a report definition can ask with "csvBom": true.
 */
import type { Argv } from "yargs";

export function withCsvBomOption<T>(y: Argv<T>) {
  return y.option("csv-bom", {
    type: "boolean",
    description:
      'Start every CSV with a UTF-8 byte-order mark so Excel on Windows shows accents right (a report definition may ask with "csvBom": true)',
  });
}
