/**
 * The shipped team-compliance definition copied into a test catalog (`DIR/team/reports/`) with a
 * mail block splitting it per manager and attaching `attach`, as the README shows it, and the
 * report mailed from it.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

export async function writeTeamCatalog(
  dir: string,
  formats: readonly string[],
  attach: readonly string[] = ["csv"],
): Promise<void> {
  const shipped = JSON.parse(
    await readFile(new URL("../../reports/team-compliance.json", import.meta.url), "utf8"),
  );
  await mkdir(join(dir, "team", "reports"), { recursive: true });
  await writeFile(
    join(dir, "team", "reports", "team-compliance.json"),
    JSON.stringify({
      ...shipped,
      formats,
      mail: { to: ["compliance@example.com"], splitBy: "manager_email", attach },
    }),
  );
}

/** The command line that mails the catalog's team-compliance report, plus `extra`. */
export function teamComplianceMail(...extra: string[]): string[] {
  return [
    "report",
    "team-compliance",
    "--catalog",
    "team",
    "--db",
    "lms.duckdb",
    "--mail",
    ...extra,
  ];
}

/** The environment of a mailing run to the SMTP server at `url`, the files written to `out`. */
export function mailEnv(url: string, out: string): Record<string, string> {
  return { LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com", LMS_OUT: out };
}
