import type ExcelJS from "exceljs";
import type { Page } from "@playwright/test";

/** A report's table as the screen shows it: the header row, the rows and the totals row, each cell's text. */
export const tableText = (page: Page) =>
  page.getByTestId("report-table").evaluate((table) => [...table.querySelectorAll("tr")].map((tr) => [...tr.querySelectorAll("th,td")].map((c) => (c.textContent ?? "").trim())));

/**
 * An exported sheet from its header row (row 3) down, as the screen would print it: money is a number in yuan in
 * the file, which the screen shows with two decimals.
 */
export function sheetAsShown(sheet: ExcelJS.Worksheet, columns: number): string[][] {
  const rows: string[][] = [];
  for (let n = 3; n <= sheet.rowCount; n++) {
    const row = sheet.getRow(n);
    rows.push(
      Array.from({ length: columns }, (_, i) => {
        const value = row.getCell(i + 1).value;
        return typeof value === "number" && sheet.getColumn(i + 1).numFmt === "#,##0.00" ? value.toLocaleString("zh-CN", { minimumFractionDigits: 2 }) : String(value ?? "");
      }),
    );
  }
  return rows;
}
