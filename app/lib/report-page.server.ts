import { PAGE_SIZES } from "../../resources/define";
import type { ReportDef } from "../../resources/report/index";

type Cell = string | number | null;

/**
 * The chart's points: every row of the report summed by the x column, money in yuan. The page's loader makes them
 * from all rows, so the chart draws the whole report while the table shows one page of it.
 */
export function chartPoints(def: ReportDef, rows: Array<Record<string, Cell>>): Array<Record<string, Cell>> {
  const chart = def.chart;
  if (!chart) return [];
  const series = chart.series.map((key) => def.columns.find((c) => c.key === key)).filter((c) => c !== undefined);
  const points = new Map<Cell, Record<string, Cell>>();
  // A price's point is its rows' Σ amount (fen) ÷ Σ quantity (thousandths), kept beside the point until all are read.
  const priceSums = new Map<Cell, Record<string, { amount: number; quantity: number }>>();
  for (const row of rows) {
    const x = row[chart.x] ?? null;
    const point = points.get(x) ?? { x };
    const sums = priceSums.get(x) ?? {};
    for (const s of series) {
      const price = chart.prices?.[s.key];
      if (price) {
        const sum = (sums[s.key] ??= { amount: 0, quantity: 0 });
        sum.amount += Number(row[price.amount] ?? 0);
        sum.quantity += Number(row[price.quantity] ?? 0);
      } else point[s.key] = Number(point[s.key] ?? 0) + Number(row[s.key] ?? 0) / (s.kind === "money" ? 100 : 1);
    }
    points.set(x, point);
    priceSums.set(x, sums);
  }
  for (const [x, sums] of priceSums)
    for (const [key, sum] of Object.entries(sums)) points.get(x)![key] = sum.quantity ? Math.round((sum.amount * 1000) / sum.quantity) / 100 : null;
  return [...points.values()];
}

/** A report page's table holds this many rows unless the URL asks for fewer (the list's page sizes). */
export const REPORT_PAGE_SIZE = 100;

/**
 * The page of a report's rows that the URL names (`pageNum`, `pageSize`), with the count of all rows. A report may
 * answer 5,000 rows; rendering and hydrating them all made a 4–7 MB page that took seconds on the server and ten in
 * the browser, while the totals, the chart, the export and the print view still cover every row (decision 046). A
 * page past the last shows the last; a page number that is not a number shows the first.
 */
export function reportPage<T>(url: URL, rows: T[]): { rows: T[]; total: number; pageNum: number; pageSize: number } {
  const size = url.searchParams.get("pageSize") ?? "";
  const pageSize = PAGE_SIZES.find((n) => String(n) === size) ?? REPORT_PAGE_SIZE;
  const asked = /^\d{1,6}$/.test(url.searchParams.get("pageNum") ?? "") ? Number(url.searchParams.get("pageNum")) : 1;
  const pageNum = Math.min(Math.max(1, asked), Math.max(1, Math.ceil(rows.length / pageSize)));
  return { rows: rows.slice((pageNum - 1) * pageSize, pageNum * pageSize), total: rows.length, pageNum, pageSize };
}
