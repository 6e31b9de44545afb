import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:3400";
const enc = (s) => `ENC:${Buffer.from(s, "utf8").toString("base64")}`;
async function call(method, path, token, body) {
  const r = await fetch(base + path, { method, headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return r.json();
}
let token;
const login = await call("POST", "/login", null, { username: enc("admin"), password: enc("Initial-Pass-2026") });
if (login.status === 200) {
  token = login.data.token;
  const ch = await call("POST", "/api/v1/auth/user/modifyPasswd", token, { oldPassword: "Initial-Pass-2026", newPassword: "Changed-Pass-2026!" });
  if (ch.status !== 200) console.log(ch);
} else {
  token = (await call("POST", "/login", null, { username: enc("admin"), password: enc("Changed-Pass-2026!") })).data.token;
}
const ok = async (path, body) => { const a = await call("POST", "/api/v1/zhhq/" + path, token, body); if (a.status !== 200) throw new Error(path + " " + JSON.stringify(a)); return a.data; };
if (process.argv[2] === "seed") {
  const kg = await ok("unit/create", { unitName: "千克" });
  const bag = await ok("unit/create", { unitName: "袋" });
  const wh = await ok("warehouse/create", { warehouseName: "主食仓库", warehouseCode: "WH01" });
  const sup = await ok("supplier/create", { supplierName: "丰收粮油有限公司" });
  const rice = await ok("goods/create", { goodsCode: "RICE01", goodsName: "东北大米", spec: "25kg/袋", unitId: bag.id, shelfLifeDays: 365 });
  const veg = await ok("goods/create", { goodsCode: "VEG01", goodsName: "青菜", unitId: kg.id, shelfLifeDays: 5 });
  const oil = await ok("goods/create", { goodsCode: "OIL01", goodsName: "花生油", spec: "5L/桶", unitId: bag.id, shelfLifeDays: 540 });
  await ok("outUseType/create", { typeName: "厨房领用" });
  const day = (o) => new Date(Date.now() + 8 * 3600e3 + o * 864e5).toISOString().slice(0, 10);
  const flow = async (doc, body, steps = ["submit", "approve"]) => { const d = await ok(`${doc}/create`, body); for (const s of steps) await ok(`${doc}/${s}`, { id: d.id }); return d; };
  const in1 = await flow("warehouseIn", { warehouseId: wh.id, supplierId: sup.id, docDate: day(-20), lines: [
    { goodsId: rice.id, quantity: 40, price: 12500, productionDate: day(-30) },
    { goodsId: veg.id, quantity: 35.5, price: 420, productionDate: day(-6) },
    { goodsId: oil.id, quantity: 12, price: 8900, batchNo: "HY-2026-11" } ] });
  await flow("warehouseIn", { warehouseId: wh.id, supplierId: sup.id, lines: [
    { goodsId: rice.id, quantity: 20, price: 12800, productionDate: day(-2) },
    { goodsId: veg.id, quantity: 18.25, price: 450 } ] });
  await flow("warehouseOut", { warehouseId: wh.id, remark: "午餐备料", lines: [{ goodsId: rice.id, quantity: 45 }, { goodsId: oil.id, quantity: 2 }] });
  await flow("warehouseOut", { warehouseId: wh.id, lines: [{ goodsId: veg.id, quantity: 10 }] }, ["submit"]);
  await flow("warehouseOut", { warehouseId: wh.id, outKind: "2", repairNo: "WX-20261128-003 食堂冷库维修", lines: [{ goodsId: oil.id, quantity: 1 }] }, ["submit"]);
  await flow("warehouseIn", { warehouseId: wh.id, lines: [{ goodsId: veg.id, quantity: 3, price: 400 }] }, ["submit"]);
  await flow("warehouseIn", { warehouseId: wh.id, lines: [{ goodsId: oil.id, quantity: 3, price: 8800 }] }, []);
  const inInfo = (await call("GET", `/api/v1/zhhq/warehouseIn/getInfo?id=${in1.id}`, token)).data;
  await flow("warehouseInReturn", { warehouseInId: in1.id, lines: [{ inLineId: inInfo.lines[2].id, quantity: 1 }] });
  console.log("seeded");
  process.exit(0);
}
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "zh-CN" });
await context.addCookies([{ name: "Admin-Token", value: token, url: base }]);
const page = await context.newPage();
for (const path of process.argv.slice(2)) {
  await page.goto(base + path);
  await page.waitForLoadState("networkidle");
  const name = path.replace(/[^a-z0-9]+/gi, "_");
  await page.screenshot({ path: `/tmp/stockshots/${name}.png`, fullPage: true });
  console.log(name);
}
await browser.close();
