import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ImportReport } from "../../resources/imports";
import { adminToken, createTestApp, expectField, loginAs, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { createTenantWithAdmin, expectOk, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope<T = unknown> = { status: number; message: string; data: T };

/**
 * The warehouse's master data as terminals, scales and the screens call it (issue 40, decision 067): the contract of
 * the four creates, codes unique per tenant, contract prices that never overlap, quantities exact to the thousandth,
 * tenants apart, permissions by code, and goods and suppliers from an XLSX.
 */
const H = "/api/v1/zhhq";

for (const dialect of dialects) {
  describe(`${dialect}: 智慧后勤 master data`, () => {
    let app: TestApp;
    let superToken: string;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;

    const call = (method: "GET" | "POST", path: string, body?: unknown, as = tenant.token) => app.call<unknown>(method, path, { token: as, body });
    const post = async (path: string, body: unknown, as = tenant.token) => (await call("POST", path, body, as)).body as Envelope;
    const ok = (path: string, body: Row, as = tenant.token) => expectOk<Row>(app, "POST", path, as, body);
    const info = async (entity: string, id: unknown, as = tenant.token) => (await call("GET", `${H}/${entity}/getInfo?id=${id}`, undefined, as)).body as Envelope<Row>;
    async function page(entity: string, query: Row = {}, as = tenant.token): Promise<Row[]> {
      const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      return (await expectOk<{ records: Row[] }>(app, "GET", `${H}/${entity}/findPage?${params}`, as)).records;
    }
    const newGoods = (body: Row = {}, as = tenant.token) => ok(`${H}/goods/create`, { goodsCode: `G${uid()}`, goodsName: "大米", ...body }, as);
    const newSupplier = (body: Row = {}, as = tenant.token) => ok(`${H}/supplier/create`, { supplierName: `粮油公司${uid()}`, ...body }, as);
    const newWarehouse = (body: Row = {}, as = tenant.token) => ok(`${H}/warehouse/create`, { warehouseName: `主仓库${uid()}`, ...body }, as);

    beforeAll(async () => {
      app = await createTestApp(dialect);
      superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `hq${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `hqo${dialect}`);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    test("the contract: a warehouse, a goods and a supplier from their names alone answer data.id, 有效 by default", async () => {
      const warehouse = await expectOk<Row>(app, "POST", `${H}/warehouse/create`, tenant.token, { warehouseName: "一号仓库" });
      expect(warehouse.id).toEqual(expect.any(Number));
      expect((await info("warehouse", warehouse.id)).data).toMatchObject({ warehouseName: "一号仓库", status: "1", warehouseCode: null });
      const goods = await expectOk<Row>(app, "POST", `${H}/goods/create`, tenant.token, { goodsCode: "RICE-01", goodsName: "东北大米" });
      expect(goods.id).toEqual(expect.any(Number));
      expect((await info("goods", goods.id)).data).toMatchObject({ goodsCode: "RICE-01", goodsName: "东北大米", status: "1", unitId: null });
      const supplier = await expectOk<Row>(app, "POST", `${H}/supplier/create`, tenant.token, { supplierName: "丰收粮油" });
      expect(supplier.id).toEqual(expect.any(Number));
      expect((await info("supplier", supplier.id)).data).toMatchObject({ supplierName: "丰收粮油", status: "1" });

      const price = await expectOk<Row>(app, "POST", `${H}/supplierGoods/create`, tenant.token, { supplierId: supplier.id, goodsId: goods.id, price: 385, validFrom: "2026-01-01" });
      expect((await info("supplierGoods", price.id)).data).toMatchObject({ supplierId: supplier.id, goodsId: goods.id, price: 385, validFrom: "2026-01-01", validTo: null, supplierIdLabel: "丰收粮油", goodsIdLabel: "东北大米" });
      // A status sent is kept; one left out of an update stays as it was.
      const disabled = await newSupplier({ status: "0" });
      expect((await info("supplier", disabled.id)).data.status).toBe("0");
      await ok(`${H}/supplier/update`, { id: disabled.id, contactName: "王经理" });
      expect((await info("supplier", disabled.id)).data).toMatchObject({ status: "0", contactName: "王经理" });
    });

    test("a goods names its unit, type and default warehouse; codes are unique in the tenant, free in another", async () => {
      const unit = await ok(`${H}/unit/create`, { unitName: "千克" });
      const grain = await ok(`${H}/goodsType/create`, { typeName: "粮油" });
      const rice = await ok(`${H}/goodsType/create`, { typeName: "米面", parentId: grain.id });
      const warehouse = await newWarehouse({ warehouseCode: "WH-01" });
      const goods = await newGoods({ goodsCode: "G-001", goodsName: "面粉", spec: "25kg/袋", unitId: unit.id, goodsTypeId: rice.id, warehouseId: warehouse.id, shelfLifeDays: 180, referencePrice: 12_550 });
      expect(await page("goods", { goodsCode: "G-001" })).toEqual([
        expect.objectContaining({ id: goods.id, unitIdLabel: "千克", goodsTypeIdLabel: "米面", warehouseIdLabel: warehouse.warehouseName, shelfLifeDays: 180, referencePrice: 12_550 }),
      ]);
      expectField(await post(`${H}/goods/create`, { goodsCode: "G-001", goodsName: "另一种面粉" }), "goodsCode", "物资编码已存在");
      expectField(await post(`${H}/warehouse/create`, { warehouseCode: "WH-01", warehouseName: "二号仓库" }), "warehouseCode", "仓库编码已存在");
      expectField(await post(`${H}/unit/create`, { unitName: "千克" }), "unitName", "单位名称已存在");
      expect((await newGoods({ goodsCode: "G-001" }, other.token)).id).toEqual(expect.any(Number));
      expect((await newWarehouse({ warehouseCode: "WH-01" }, other.token)).id).toEqual(expect.any(Number));

      // Goods types are a tree: a type never moves under itself or its own children.
      expectField(await post(`${H}/goodsType/update`, { id: grain.id, parentId: rice.id }), "parentId", "上级分类不能是本分类或其下级分类");
      expectField(await post(`${H}/goodsType/update`, { id: grain.id, parentId: grain.id }), "parentId", "上级分类不能是本分类或其下级分类");
      // What goods still use stays: a unit, a type with goods or children, a warehouse.
      for (const [entity, id] of [["unit", unit.id], ["goodsType", rice.id], ["goodsType", grain.id], ["warehouse", warehouse.id]] as const) {
        const refused = (await call("GET", `${H}/${entity}/delete?id=${id}`)).body as Envelope;
        expect(refused.status, `${entity} ${JSON.stringify(refused)}`).toBe(409);
      }
      const type = await ok(`${H}/warehouseType/create`, { typeName: "冷库" });
      const cold = await newWarehouse({ warehouseTypeId: type.id });
      expect(((await call("GET", `${H}/warehouseType/delete?id=${type.id}`)).body as Envelope).status).toBe(409);
      await ok(`${H}/warehouse/update`, { id: cold.id, warehouseTypeId: null });
      expect(((await call("GET", `${H}/warehouseType/delete?id=${type.id}`)).body as Envelope).status).toBe(200);
    });

    test("a warehouse serves a restaurant of the tenant, never a department or another tenant's", async () => {
      const restaurant = await ok("/api/v1/auth/org/create", { orgName: "东区餐厅", orgType: "restaurant", status: "1" });
      const warehouse = await newWarehouse({ restaurantId: restaurant.id, address: "东区地下一层", keepers: "张三、李四" });
      expect((await info("warehouse", warehouse.id)).data).toMatchObject({ restaurantIdLabel: "东区餐厅", keepers: "张三、李四" });
      expectField(await post(`${H}/warehouse/create`, { warehouseName: "部门仓", restaurantId: tenant.rootOrgId }), "restaurantId", /不是餐厅/);
      expectField(await post(`${H}/warehouse/create`, { warehouseName: "他人仓", restaurantId: restaurant.id }, other.token), "restaurantId", "所选服务餐厅不存在");
      // The users' warehouse links (分配仓库) offer the declared warehouses.
      const options = await expectOk<{ options: Array<{ id: number; name: string }> }>(app, "GET", `/api/v1/auth/user/getUserWarehouseList?id=${tenant.adminUserId}`, tenant.token);
      expect(options.options).toEqual(expect.arrayContaining([expect.objectContaining({ id: warehouse.id, name: warehouse.warehouseName })]));
    });

    test("a contract price: valid to not before valid from, and no two periods of one supplier × goods overlap", async () => {
      const supplier = await newSupplier();
      const goods = await newGoods();
      const price = (body: Row) => post(`${H}/supplierGoods/create`, { supplierId: supplier.id, goodsId: goods.id, price: 500, ...body });
      expect((await price({ validFrom: "2026-01-01", validTo: "2026-03-31" })).status).toBe(200);
      expect((await price({ validFrom: "2026-04-01", validTo: "2026-06-30" })).status).toBe(200);
      expectField(await price({ validFrom: "2026-03-31", validTo: "2026-04-15" }), "validFrom", "该供应商此物资已有 2026-01-01 至 2026-03-31 的合同价格，有效期不能重叠");
      expectField(await price({ validFrom: "2025-12-01" }), "validFrom", /有效期不能重叠/);
      expectField(await price({ validFrom: "2026-08-01", validTo: "2026-07-01" }), "validTo", "失效日期不能早于生效日期");
      const open = await price({ validFrom: "2026-07-01" });
      expect(open.status).toBe(200);
      expectField(await price({ validFrom: "2027-01-01", validTo: "2027-01-31" }), "validFrom", "该供应商此物资已有 2026-07-01 至 长期 的合同价格，有效期不能重叠");
      // An edit is checked against the others, not itself.
      const openId = (open.data as Row).id;
      expect((await post(`${H}/supplierGoods/update`, { id: openId, validTo: "2026-12-31" })).status).toBe(200);
      expectField(await post(`${H}/supplierGoods/update`, { id: openId, validFrom: "2026-06-01" }), "validFrom", /2026-04-01 至 2026-06-30/);
      // Another goods of the supplier, or another supplier of the goods, has periods of its own.
      expect((await post(`${H}/supplierGoods/create`, { supplierId: supplier.id, goodsId: (await newGoods()).id, price: 1, validFrom: "2026-01-01" })).status).toBe(200);
      expect((await post(`${H}/supplierGoods/create`, { supplierId: (await newSupplier()).id, goodsId: goods.id, price: 1, validFrom: "2026-01-01" })).status).toBe(200);
    });

    test("ten overlapping contract prices sent at once: exactly one is kept", async () => {
      const supplier = await newSupplier();
      const goods = await newGoods();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => post(`${H}/supplierGoods/create`, { supplierId: supplier.id, goodsId: goods.id, price: 100 + i, validFrom: `2026-02-${String(i + 1).padStart(2, "0")}` })),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const refused of results.filter((r) => r.status !== 200)) expectField(refused, "validFrom", /有效期不能重叠/);
      expect(await page("supplierGoods", { supplierId: supplier.id })).toHaveLength(1);
    });

    test("thresholds: quantities of at most 3 places, stored exactly as thousandths, upper not below lower", async () => {
      const warehouse = await newWarehouse();
      const goods = await newGoods();
      const threshold = await ok(`${H}/goodsThreshold/create`, { warehouseId: warehouse.id, goodsId: goods.id, lowerQuantity: 12.345, upperQuantity: "290.29" });
      expect((await info("goodsThreshold", threshold.id)).data).toMatchObject({ lowerQuantity: 12.345, upperQuantity: 290.29 });
      const stored = await app.database.db.selectFrom("goods_threshold").select(["lower_quantity", "upper_quantity"]).where("id", "=", threshold.id as number).executeTakeFirstOrThrow();
      expect(stored).toEqual({ lower_quantity: 12_345, upper_quantity: 290_290 });
      // 0.29 × 1000 is 289.99999999999994 as a float: the decimal is read as written.
      await ok(`${H}/goodsThreshold/update`, { id: threshold.id, lowerQuantity: 0.29 });
      expect((await app.database.db.selectFrom("goods_threshold").select("lower_quantity").where("id", "=", threshold.id as number).executeTakeFirstOrThrow()).lower_quantity).toBe(290);

      const set = (body: Row) => post(`${H}/goodsThreshold/update`, { id: threshold.id, ...body });
      expectField(await set({ lowerQuantity: 1.2345 }), "lowerQuantity", "下限数量最多 3 位小数");
      expectField(await set({ lowerQuantity: "0.0001" }), "lowerQuantity", "下限数量最多 3 位小数");
      expectField(await set({ lowerQuantity: -1 }), "lowerQuantity", "下限数量不能为负数");
      expectField(await set({ upperQuantity: 1_000_000.001 }), "upperQuantity", "上限数量不能大于 1000000");
      expectField(await set({ upperQuantity: 1e21 }), "upperQuantity", "上限数量不能大于 1000000");
      expectField(await set({ upperQuantity: "12kg" }), "upperQuantity", "上限数量必须是数字");
      expectField(await set({ upperQuantity: 0.1 }), "upperQuantity", "上限数量不能小于下限数量");
      expect((await set({ upperQuantity: 1_000_000 })).status).toBe(200);
      expect((await info("goodsThreshold", threshold.id)).data).toMatchObject({ lowerQuantity: 0.29, upperQuantity: 1_000_000 });
      expectField(await post(`${H}/goodsThreshold/create`, { warehouseId: warehouse.id, goodsId: goods.id, lowerQuantity: 1 }), "warehouseId", "该仓库已设置此物资的上下限");
    });

    test("hostile input is a 400 naming the field, in Chinese, and stores nothing", async () => {
      const supplier = await newSupplier();
      const goods = await newGoods();
      const cases: Array<[string, Row, string, string | RegExp]> = [
        ["warehouse", { warehouseName: "" }, "warehouseName", "请输入仓库名称"],
        ["warehouse", { warehouseName: "仓\u0000库" }, "warehouseName", "仓库名称含有无法保存的字符"],
        ["warehouse", { warehouseName: "仓库", warehouseCode: "仓库一" }, "warehouseCode", "仓库编码只能包含字母、数字、下划线和短横线"],
        ["warehouse", { warehouseName: "仓库", status: "9" }, "status", "状态不是可选的值"],
        ["goods", { goodsName: "米" }, "goodsCode", "请输入物资编码"],
        ["goods", { goodsCode: "X1", goodsName: "米", shelfLifeDays: 1.5 }, "shelfLifeDays", "保质期（天）必须是整数"],
        ["goods", { goodsCode: "X1", goodsName: "米", referencePrice: -1 }, "referencePrice", "不能为负数"],
        ["goods", { goodsCode: "X1", goodsName: "米", unitId: 424242 }, "unitId", "所选单位不存在"],
        ["goods", { goodsCode: "X1", goodsName: "米".repeat(51) }, "goodsName", "物资名称不能超过 50 个字符"],
        ["supplier", { supplierName: "供应商", phone: "12345" }, "phone", /联系电话应为/],
        ["supplier", { supplierName: "供应商", creditCode: "91110000ABC" }, "creditCode", /统一社会信用代码应为 18 位/],
        ["supplierGoods", { supplierId: supplier.id, goodsId: goods.id, price: "abc", validFrom: "2026-01-01" }, "price", /合同单价（元）必须是/],
        ["supplierGoods", { supplierId: supplier.id, goodsId: goods.id, price: 1.5, validFrom: "2026-01-01" }, "price", /合同单价（元）必须是/],
        ["supplierGoods", { supplierId: supplier.id, goodsId: goods.id, price: 100, validFrom: "2026-02-30" }, "validFrom", "生效日期不是有效的日期"],
        ["supplierGoods", { goodsId: goods.id, price: 100, validFrom: "2026-01-01" }, "supplierId", "请选择供应商"],
        ["goodsThreshold", { goodsId: goods.id, lowerQuantity: 1 }, "warehouseId", "请选择仓库"],
      ];
      const before = await page("goods");
      for (const [entity, body, field, message] of cases) expectField(await post(`${H}/${entity}/create`, body), field, message);
      expect(await page("goods")).toEqual(before);
      expect(await page("supplierGoods", { supplierId: supplier.id })).toEqual([]);
    });

    test("tenants apart: another tenant sees none of it, cannot read, change, delete or name it", async () => {
      const goods = await newGoods({ goodsCode: `ISO${uid()}` });
      const supplier = await newSupplier();
      const warehouse = await newWarehouse();
      for (const entity of ["goods", "supplier", "warehouse", "supplierGoods", "goodsThreshold", "unit", "goodsType", "warehouseType", "supplierType", "outUseType"]) {
        const theirs = await page(entity, {}, other.token);
        expect(theirs.filter((r) => [goods.id, supplier.id, warehouse.id].includes(r.id)), entity).toEqual([]);
      }
      expect((await info("goods", goods.id, other.token)).status).toBe(404);
      expect((await post(`${H}/goods/update`, { id: goods.id, goodsName: "改名" }, other.token)).status).toBe(404);
      expect(((await call("GET", `${H}/supplier/delete?id=${supplier.id}`, undefined, other.token)).body as Envelope).status).toBe(404);
      expectField(await post(`${H}/supplierGoods/create`, { supplierId: supplier.id, goodsId: goods.id, price: 1, validFrom: "2026-01-01" }, other.token), "supplierId", "所选供应商不存在");
      expectField(await post(`${H}/goodsThreshold/create`, { warehouseId: warehouse.id, goodsId: goods.id, lowerQuantity: 1 }, other.token), "warehouseId", "所选仓库不存在");
      expect((await info("goods", goods.id)).data.goodsName).toBe("大米");
    });

    test("permissions by code: a keeper with the goods list only reads it; without the page, nothing", async () => {
      const rows = await app.database.db.selectFrom("menu").select(["id", "permission"]).where("permission", "like", "zhhq:%").execute();
      const menu = new Map(rows.map((r) => [r.permission as string, Number(r.id)]));
      for (const code of ["zhhq:warehouse:create", "zhhq:goods:import", "zhhq:supplierGoods:update", "zhhq:goodsThreshold:delete", "zhhq:outUseType:export"]) expect(menu.has(code), code).toBe(true);
      const role = await ok("/api/v1/auth/role/create", { roleCode: "keeper", roleName: "仓管员", roleType: "user", status: "1" });
      await ok("/api/v1/auth/role/assignMenu", { roleId: role.id, menuIds: [menu.get("zhhq:goods:view")] });
      const signIn = async (userName: string, roleIds: unknown[]) => {
        await ok("/api/v1/auth/user/create", { user: { userName, realName: userName, status: "1", password: "First-Pass-2026" }, roleIds });
        const token = await loginAs(app, userName, "First-Pass-2026");
        await expectOk(app, "POST", "/api/v1/auth/user/modifyPasswd", token, { oldPassword: "First-Pass-2026", newPassword: "Second-Pass-2026" });
        return token;
      };
      const keeper = await signIn(`keeper${dialect}`, [role.id]);
      expect((await call("GET", `${H}/goods/findPage`, undefined, keeper)).body.status).toBe(200);
      for (const [method, path, body] of [
        ["POST", `${H}/goods/create`, { goodsCode: "K1", goodsName: "米" }],
        ["GET", `${H}/supplier/findPage`, undefined],
        ["POST", `${H}/warehouse/create`, { warehouseName: "仓管建" }],
        ["POST", `${H}/supplierGoods/create`, {}],
      ] as const) {
        const refused = await call(method, path, body, keeper);
        expect(refused.body.status, path).toBe(403);
        expect(refused.http).toBe(403);
      }
      const nobody = await signIn(`nobody${dialect}`, []);
      expect((await call("GET", `${H}/goods/findPage`, undefined, nobody)).body.status).toBe(403);
    });

    test("goods and suppliers from an XLSX: a dry run names each bad row; the import names units and types by name", async () => {
      await ok(`${H}/unit/create`, { unitName: "袋" });
      await ok(`${H}/goodsType/create`, { typeName: "干货" });
      await ok(`${H}/supplierType/create`, { typeName: "粮油类" });
      await newGoods({ goodsCode: "DUP-1" });
      const template = async (entity: string) => {
        const response = await app.api.handle(new Request(`${ORIGIN}${H}/${entity}/importTemplate`, { headers: { Authorization: `Bearer ${tenant.token}` } }), "127.0.0.1");
        expect(response.status).toBe(200);
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(await response.arrayBuffer());
        return (workbook.worksheets[0].getRow(1).values as unknown[]).slice(1).map(String);
      };
      const upload = async (entity: string, headers: string[], rows: Row[], dryRun: boolean) => {
        const workbook = new ExcelJS.Workbook();
        const sheet = workbook.addWorksheet("数据");
        sheet.addRow(headers);
        for (const row of rows) sheet.addRow(headers.map((h) => row[h.replace(/\*$/, "")] ?? ""));
        const response = await app.api.handle(
          new Request(`${ORIGIN}${H}/${entity}/import${dryRun ? "?dryRun=1" : ""}`, {
            method: "POST",
            headers: { Authorization: `Bearer ${tenant.token}`, "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
            body: new Uint8Array(Buffer.from(await workbook.xlsx.writeBuffer())),
          }),
          "127.0.0.1",
        );
        return (await response.json()) as Envelope<ImportReport>;
      };
      const goodsHeaders = await template("goods");
      expect(goodsHeaders).toEqual(expect.arrayContaining(["物资编码*", "物资名称*", "规格", "单位", "物资分类", "保质期（天）", "参考单价（元）", "状态"]));
      const rows = [
        { 物资编码: "IMP-1", 物资名称: "绿豆", 规格: "5kg/袋", 单位: "袋", 物资分类: "干货", "保质期（天）": 365, "参考单价（元）": "38.50", 状态: "有效" },
        { 物资编码: "IMP-2", 物资名称: "红豆", 单位: "袋" },
        { 物资编码: "DUP-1", 物资名称: "重复" },
        { 物资编码: "IMP-4", 物资名称: "黑豆", 单位: "吨" },
      ];
      const dry = await upload("goods", goodsHeaders, rows, true);
      expect(dry.data).toMatchObject({ dryRun: true, total: 4, valid: 2, invalid: 2 });
      expect(dry.data.errors.map((e) => e.row)).toEqual([4, 5]);
      expect(dry.data.errors[0].reasons.join()).toMatch(/DUP-1/);
      expect(dry.data.errors[1].reasons.join()).toMatch(/吨/);
      expect(await page("goods", { goodsCode: "IMP-" })).toEqual([]);
      const done = await upload("goods", goodsHeaders, rows.slice(0, 2), false);
      expect(done.data).toMatchObject({ imported: 2 });
      const imported = await page("goods", { goodsCode: "IMP-", sort: "goodsCode,asc" });
      expect(imported).toEqual([
        expect.objectContaining({ goodsCode: "IMP-1", unitIdLabel: "袋", goodsTypeIdLabel: "干货", shelfLifeDays: 365, referencePrice: 3850, status: "1" }),
        expect.objectContaining({ goodsCode: "IMP-2", unitIdLabel: "袋", status: "1" }),
      ]);

      const supplierHeaders = await template("supplier");
      const suppliers = await upload("supplier", supplierHeaders, [{ 供应商名称: "导入粮油", 供应商类型: "粮油类", 联系人: "赵六", 联系电话: "13900000000" }], false);
      expect(suppliers.data).toMatchObject({ imported: 1 });
      expect(await page("supplier", { supplierName: "导入粮油" })).toEqual([expect.objectContaining({ supplierTypeIdLabel: "粮油类", contactName: "赵六", status: "1" })]);
    });
  });
}
