import { describe, expect, test } from "vitest";
import { chartPoints, REPORT_PAGE_SIZE, reportPage } from "../../app/lib/report-page.server";
import { findReport } from "../../resources/report/index";

const rows = Array.from({ length: 250 }, (_, i) => ({ n: i + 1 }));
const at = (search: string) => reportPage(new URL(`http://canteen.test/report/x/index?${search}`), rows);

describe("a report page shows a page of its rows (decision 046)", () => {
  test("a hundred rows by default, the page the URL names, and the count of all rows", () => {
    expect(REPORT_PAGE_SIZE).toBe(100);
    const first = at("");
    expect(first).toMatchObject({ total: 250, pageNum: 1, pageSize: 100 });
    expect(first.rows.map((r) => r.n)).toEqual(rows.slice(0, 100).map((r) => r.n));
    const third = at("pageNum=3");
    expect(third.rows.map((r) => r.n)).toEqual([...Array(50).keys()].map((i) => 201 + i));
    const small = at("pageNum=2&pageSize=20");
    expect(small).toMatchObject({ pageNum: 2, pageSize: 20, total: 250 });
    expect(small.rows.map((r) => r.n)).toEqual([...Array(20).keys()].map((i) => 21 + i));
  });

  test("a page past the last shows the last; a page or size that is not one of ours shows the defaults", () => {
    expect(at("pageNum=99").pageNum).toBe(3);
    expect(at("pageNum=99").rows).toHaveLength(50);
    for (const bad of ["pageNum=0", "pageNum=-1", "pageNum=abc", "pageNum=1e3", "pageNum=%00", "pageNum=99999999999"]) expect(at(bad).pageNum, bad).toBe(1);
    for (const bad of ["pageSize=7", "pageSize=1000", "pageSize=", "pageSize=10.0"]) expect(at(bad).pageSize, bad).toBe(100);
    const none = reportPage(new URL("http://canteen.test/r?pageNum=5"), []);
    expect(none).toMatchObject({ rows: [], total: 0, pageNum: 1 });
  });
});

describe("a report's chart draws every row, not the page", () => {
  test("rows are summed by the chart's x column, money in yuan", () => {
    const def = findReport("dailyOrderSummary");
    if (!def?.chart) throw new Error("订单日汇总 has a chart");
    const { x, series } = def.chart;
    const many = Array.from({ length: 300 }, (_, i) => ({ [x]: `2026-05-${String((i % 30) + 1).padStart(2, "0")}`, [series[0]]: 150 }));
    const points = chartPoints(def, many);
    expect(points).toHaveLength(30);
    expect(points[0]).toEqual({ x: "2026-05-01", [series[0]]: 15 });
    expect(chartPoints(findReport("userConsumption")!, many)).toEqual([]);
  });
});
