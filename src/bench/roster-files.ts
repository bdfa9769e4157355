/**
 * The people file the roster bench imports, written as CSV or as XLSX with the same rows, so that
 * the two formats' figures compare the readers and nothing else.
 */
import { writeFile } from "node:fs/promises";
import ExcelJS from "exceljs";

const DEPARTMENTS = ["Sales, EMEA", "R&D", "Finance", "Ops", "Legal", "Support"];

const HEADER = [
  "User ID",
  "First Name",
  "Last Name",
  "E-mail",
  "Status",
  "Employee Number",
  "Department",
  "Manager Email",
  "Location",
  "Job Title",
];

/** Person `i`: accented names, a department holding a comma; the id is a number. */
function person(i: number): [number, ...string[]] {
  return [
    i,
    `Zoë${i % 977}`,
    `Núñez-${i % 1361}`,
    `person${i}@example.org`,
    i % 17 === 0 ? "inactive" : "active",
    `E-${String(i).padStart(7, "0")}`,
    DEPARTMENTS[i % DEPARTMENTS.length] as string,
    `manager${i % 500}@example.org`,
    `Site ${i % 40}`,
    `Job title ${i % 120}`,
  ];
}

/** An HR-style CSV export: BOM, CRLF, the department quoted (it may hold a comma). */
export async function writeRosterCsv(path: string, rows: number): Promise<void> {
  const lines = [HEADER.join(",")];
  for (let i = 1; i <= rows; i++) {
    const [id, first, last, email, status, employee, dept, manager, site, job] = person(i);
    lines.push(
      `${id},${first},${last},${email},${status},${employee},"${dept}",${manager},${site},${job}`,
    );
  }
  await writeFile(path, `\uFEFF${lines.join("\r\n")}\r\n`);
}

/**
 * The same people as a workbook laid out as Excel saves one: strings in the shared-strings part
 * (written after the sheet, as Excel does), the id a number cell.
 */
export async function writeRosterXlsx(path: string, rows: number): Promise<void> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useSharedStrings: true,
    useStyles: true,
  });
  const sheet = book.addWorksheet("People");
  sheet.addRow(HEADER).commit();
  for (let i = 1; i <= rows; i++) sheet.addRow(person(i)).commit();
  sheet.commit();
  await book.commit();
}
