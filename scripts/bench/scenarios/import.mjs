// XLSX import (decision 018; issue 12: "20,000 rows must import in under 30 s"): BENCH_IMPORT_ROWS diners (default
// 20,000; each opens a cash and a subsidy account) and as many dishes, each file made from the downloaded template,
// checked (dry run) and then imported in one transaction through the API; the time of each and the server's peak RSS.
import ExcelJS from "exceljs";
import { BASE, env, log, rssOf } from "../lib.mjs";

const ROWS = Number(env.BENCH_IMPORT_ROWS ?? 20_000);
const GROUPS = 20;
const DISH_CLASSES = ["荤菜", "半荤", "素菜", "主食", "其他"];

/** The entity's template filled with `rows`, each given by header label (without the required mark `*`). */
async function fromTemplate(entity, auth, rows) {
  const template = await (await fetch(`${BASE}/api/v1/zhct/${entity}/importTemplate`, { headers: auth })).arrayBuffer();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(template);
  const sheet = workbook.worksheets[0];
  const headers = sheet.getRow(1).values.slice(1).map((h) => String(h).replace(/\*$/, ""));
  for (const row of rows) sheet.addRow(headers.map((h) => row[h] ?? ""));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A dry run, then the import, of `file`: milliseconds and the server's RSS before and at its peak (sampled every 20 ms). */
async function importTwice(entity, file, auth, pid) {
  const send = async (dryRun) => {
    const before = rssOf(pid);
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
    const started = performance.now();
    const response = await fetch(`${BASE}/api/v1/zhct/${entity}/import?dryRun=${dryRun ? 1 : 0}`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
      body: file,
    });
    const envelope = await response.json();
    const ms = Math.round(performance.now() - started);
    clearInterval(timer);
    peak = Math.max(peak, rssOf(pid));
    if (envelope.status !== 200) throw new Error(`${entity} import: ${envelope.message} ${JSON.stringify(envelope.data?.errors?.slice(0, 3) ?? "")}`);
    if (envelope.data.total !== ROWS || envelope.data.imported !== (dryRun ? 0 : ROWS)) throw new Error(`${entity} import: ${JSON.stringify(envelope.data).slice(0, 300)}`);
    return { ms, rssBeforeMiB: Math.round(before / 1024), rssPeakMiB: Math.round(peak / 1024) };
  };
  const check = await send(true);
  const write = await send(false);
  return { fileBytes: file.length, dryRunMs: check.ms, dryRunRssMiB: check.rssPeakMiB, dryRunRssBeforeMiB: check.rssBeforeMiB, importMs: write.ms, importRssMiB: write.rssPeakMiB, importRssBeforeMiB: write.rssBeforeMiB };
}

export default {
  name: "import",
  title: `XLSX import of ${ROWS} diners and ${ROWS} dishes`,
  once: true,
  sizes: { importRows: ROWS },
  async run({ auth, pid }) {
    const call = async (path, body) => {
      const envelope = await (await fetch(`${BASE}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...auth }, body: JSON.stringify(body) })).json();
      if (envelope.status !== 200) throw new Error(`${path}: ${envelope.message}`);
      return envelope.data;
    };
    const suffix = Date.now().toString(36);
    for (let i = 0; i < GROUPS; i++) await call("/api/v1/auth/org/create", { orgName: `导入压测部门${suffix}-${i}`, orgType: "department", sort: i, status: "1" });
    const diners = Array.from({ length: ROWS }, (_, i) => ({
      人员编号: `IM${suffix}${String(i).padStart(6, "0")}`,
      姓名: `导入食客${i}`,
      性别: i % 2 ? "男" : "女",
      手机号: `139${String(i).padStart(8, "0")}`,
      部门: `导入压测部门${suffix}-${i % GROUPS}`,
      人员类别: i % 10 ? "正式员工" : "外包",
    }));
    log(`XLSX import of ${ROWS} diners…`);
    const dinerResult = await importTwice("userInfo", await fromTemplate("userInfo", auth, diners), auth, pid);

    await call("/api/v1/auth/org/create", { orgName: `导入压测餐厅${suffix}`, orgType: "restaurant", sort: 0, status: "1" });
    for (let i = 0; i < GROUPS; i++) await call("/api/v1/zhct/foodType/create", { typeName: `导入压测分类${suffix}-${i}`, sort: i, status: "1" });
    const dishes = Array.from({ length: ROWS }, (_, i) => ({
      菜品名称: `导入菜品${i}`,
      菜品分类: `导入压测分类${suffix}-${i % GROUPS}`,
      "餐厅/档口": `导入压测餐厅${suffix}`,
      "价格（元）": (500 + (i % 3000)) / 100,
      单位: "份",
      菜品类别: DISH_CLASSES[i % DISH_CLASSES.length],
      上架: i % 7 ? "是" : "否",
      主要食材: "食材",
    }));
    log(`XLSX import of ${ROWS} dishes…`);
    const dishResult = await importTwice("food", await fromTemplate("food", auth, dishes), auth, pid);
    const flat = (prefix, r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [`${prefix}${k[0].toUpperCase()}${k.slice(1)}`, v]));
    return { ...flat("diners", dinerResult), ...flat("dishes", dishResult) };
  },
  rows: (r) =>
    [["diners", "diners (each with 2 accounts)"], ["dishes", "dishes"]].flatMap(([key, label]) => {
      const cell = (step) => `${(r[`${key}${step}Ms`] / 1000).toFixed(1)} s, peak RSS ${r[`${key}${step}RssMiB`]} MiB (from ${r[`${key}${step}RssBeforeMiB`]})`;
      return [
        [`XLSX import of ${ROWS} ${label}, dry run (${(r[`${key}FileBytes`] / 1024 / 1024).toFixed(1)} MB file)`, cell("DryRun")],
        [`XLSX import of ${ROWS} ${label}, one transaction`, cell("Import")],
      ];
    }),
};
