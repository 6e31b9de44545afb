import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminToken, createTestApp, expectField, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { uploadedReference } from "../helpers/fixtures";
import { stockClient, type StockClient } from "../helpers/stock";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Envelope<T = unknown> = { status: number; message: string; data: T };

/**
 * Repairs through the API (issue 36, decision 074): the request's place rules and number, each declared step from its
 * statuses only (409 otherwise, naming the status), who and when, a part drawn from stock by a 维修出库 that names the
 * repair (its cost is the stock's), the rating, a rejection with its reason, pictures at most 6, tenants apart.
 */
const H = "/api/v1/zhhq";

for (const dialect of dialects) {
  describe(`${dialect}: 报修`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let stock: StockClient;

    const call = (path: string, body: unknown, as = tenant.token) => app.call<unknown>("POST", path, { token: as, body });
    async function ok(path: string, body: Row, as = tenant.token): Promise<Row> {
      const result = await call(path, body, as);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return (result.body as Envelope<Row>).data;
    }
    const info = async (id: unknown, as = tenant.token) => (await app.call<unknown>("GET", `${H}/repair/getInfo?id=${id}`, { token: as })).body as Envelope<Row>;
    const report = (body: Row = {}) => ok(`${H}/repair/create`, { placeType: "other", place: "二楼洗手间", repairType: "water_electric", content: "水龙头漏水", reporterName: "王师傅", reporterPhone: "13800000000", ...body });
    async function refused(path: string, body: Row, message: string) {
      const answer = await call(path, body);
      expect(answer.http, JSON.stringify(answer.body)).toBe(409);
      expect((answer.body as Envelope).message).toBe(message);
    }

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `rp${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `rpo${dialect}`);
      stock = stockClient(app, () => tenant.token);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });

    test("a request names its place as its type says, gets a number of the day and starts 已提交", async () => {
      expectField((await call(`${H}/repair/create`, { placeType: "dormitory", repairType: "door_window", content: "门锁坏了", reporterName: "李" })).body, "dormitoryId", "地点类型为宿舍时请选择宿舍房间");
      expectField((await call(`${H}/repair/create`, { placeType: "restaurant", repairType: "kitchen", content: "灶台不点火", reporterName: "李" })).body, "restaurantId", "地点类型为餐厅时请选择餐厅");
      expectField((await call(`${H}/repair/create`, { placeType: "other", place: " ", repairType: "other", content: "灯不亮", reporterName: "李" })).body, "place", "地点类型为其他时请输入具体位置");
      expectField((await call(`${H}/repair/create`, { placeType: "other", place: "大厅", repairType: "bogus", content: "灯不亮", reporterName: "李" })).body, "repairType", /.+/);
      const room = await ok(`${H}/dormitory/create`, { building: "3号楼", roomNo: "205", beds: 4 });
      const first = await report({ placeType: "dormitory", dormitoryId: room.id, place: "阳台" });
      const second = await report();
      expect(String(first.repairNo)).toMatch(/^WX\d{8}-\d{3}$/);
      expect(Number(String(second.repairNo).slice(-3))).toBe(Number(String(first.repairNo).slice(-3)) + 1);
      expect((await info(first.id)).data).toMatchObject({ repairStatus: "0", dormitoryIdLabel: "205", priority: "1", workerName: null });
      // The status is the steps': a create's status is 已提交 whatever it sends.
      const forged = await call(`${H}/repair/create`, { placeType: "other", place: "大厅", repairType: "other", content: "灯不亮", reporterName: "李", repairStatus: "3", repairNo: "X1" });
      const made = (forged.body as Envelope<Row>).data;
      expect(made).toMatchObject({ repairStatus: "0" });
      expect(made.repairNo).not.toBe("X1");
    });

    test("reports made at once get different numbers of the day", async () => {
      const made = await Promise.all(Array.from({ length: 6 }, (_, i) => report({ content: `同时报修 ${i}` })));
      const numbers = made.map((r) => String(r.repairNo));
      expect(new Set(numbers).size).toBe(6);
      for (const no of numbers) expect(no).toMatch(/^WX\d{8}-\d{3}$/);
    });

    test("the full workflow with a part drawn from stock: accepted, in progress, finished with the part's stock cost, rated; each step only from its status", async () => {
      const r = await report();
      await refused(`${H}/repair/start`, { id: r.id }, "该报修单当前为「已提交」，不能开始维修");
      await refused(`${H}/repair/rate`, { id: r.id, rating: 5 }, "该报修单当前为「已提交」，不能评价");
      expectField((await call(`${H}/repair/accept`, { id: r.id })).body, "workerName", "请输入维修人员");
      expect(await ok(`${H}/repair/accept`, { id: r.id, workerName: "张电工", workerPhone: "13900000000" })).toMatchObject({ repairStatus: "1", workerName: "张电工" });
      await refused(`${H}/repair/accept`, { id: r.id, workerName: "李" }, "该报修单当前为「已受理」，不能受理");
      await refused(`${H}/repair/finish`, { id: r.id, finishNote: "好了" }, "该报修单当前为「已受理」，不能完成");
      expect(await ok(`${H}/repair/start`, { id: r.id })).toMatchObject({ repairStatus: "2" });
      await ok(`${H}/repairDetail/create`, { repairId: r.id, note: "更换水龙头阀芯", hours: 1.5 });

      // The part: a stock-in at 12.50, then a 维修出库 of 2 naming the repair, approved.
      const warehouseId = await stock.warehouse();
      const goodsId = await stock.goods({ goodsName: "阀芯" });
      await stock.approved("warehouseIn", { warehouseId, lines: [{ goodsId, quantity: 5, price: 1250 }] });
      await stock.approved("warehouseOut", { warehouseId, outKind: "2", repairNo: r.repairNo, lines: [{ goodsId, quantity: 2 }] });
      // A stock-out still in draft does not count.
      await stock.create("warehouseOut", { warehouseId, outKind: "2", repairNo: r.repairNo, lines: [{ goodsId, quantity: 1 }] });
      const finished = await ok(`${H}/repair/finish`, { id: r.id, finishNote: "已更换阀芯，不再漏水" });
      expect(finished).toMatchObject({ repairStatus: "3", partsCost: 2500 });
      expect(await stock.stock(warehouseId, goodsId)).toEqual({ quantity: 3, amount: 3750 });

      expectField((await call(`${H}/repair/rate`, { id: r.id, rating: 6 })).body, "rating", /.+/);
      expect(await ok(`${H}/repair/rate`, { id: r.id, rating: 5, ratingComment: "很及时" })).toMatchObject({ repairStatus: "4", rating: 5 });
      const done = (await info(r.id)).data;
      expect(done).toMatchObject({ repairStatus: "4", workerName: "张电工", finishNote: "已更换阀芯，不再漏水", partsCost: 2500, rating: 5, ratingComment: "很及时" });
      for (const at of ["acceptedAt", "startedAt", "finishedAt"]) expect(done[at]).toEqual(expect.any(Number));
      expect(done.acceptMinutes).toEqual(expect.any(Number));
      expect(done.finishMinutes).toEqual(expect.any(Number));
      // No work is added to a closed repair.
      expectField((await call(`${H}/repairDetail/create`, { repairId: r.id, note: "返工" })).body, "repairId", "该报修单当前为「已评价」，不能再添加");
      const details = (await app.call<unknown>("GET", `${H}/repairDetail/findPage?repairId=${r.id}`, { token: tenant.token })).body as Envelope<{ records: Row[] }>;
      expect(details.data.records).toEqual([expect.objectContaining({ note: "更换水龙头阀芯", hours: 1.5, workerName: "张电工" })]);
      // Who took each step and when: the operation log.
      const log = (await app.call<unknown>("GET", `/api/v1/sys/operationLog/findPage?entityId=${r.id}&pageSize=20`, { token: tenant.token })).body as Envelope<{ records: Row[] }>;
      expect(log.data.records.map((l) => l.action).sort()).toEqual(expect.arrayContaining(["accept", "finish", "rate", "start"]));
    });

    test("a rejection needs its reason and ends the request", async () => {
      const r = await report();
      expectField((await call(`${H}/repair/reject`, { id: r.id })).body, "reason", "请输入驳回原因");
      expect(await ok(`${H}/repair/reject`, { id: r.id, reason: "非后勤维修范围" })).toMatchObject({ repairStatus: "9", rejectReason: "非后勤维修范围" });
      expect((await info(r.id)).data).toMatchObject({ repairStatus: "9", rejectReason: "非后勤维修范围" });
      await refused(`${H}/repair/accept`, { id: r.id, workerName: "张" }, "该报修单当前为「已驳回」，不能受理");
      await refused(`${H}/repair/reject`, { id: r.id, reason: "再驳回" }, "该报修单当前为「已驳回」，不能驳回");
    });

    test("pictures are uploads of the tenant, at most 6 to a repair", async () => {
      const picture = async () => uploadedReference(app, "image", tenant.tenantId);
      const r = await report({ image: await picture() });
      for (let i = 0; i < 5; i++) await ok(`${H}/repairImage/create`, { repairId: r.id, stage: i < 2 ? "before" : "after", image: await picture() });
      expectField((await call(`${H}/repairImage/create`, { repairId: r.id, stage: "after", image: await picture() })).body, "image", "每张报修单最多 6 张图片");
      // Another tenant's upload is not a picture of this one.
      const theirs = await uploadedReference(app, "image", other.tenantId);
      expectField((await call(`${H}/repair/create`, { placeType: "other", place: "大厅", repairType: "other", content: "灯", reporterName: "李", image: theirs })).body, "image", /.+/);
    });

    test("tenants apart: another tenant's repair is not found nor moved", async () => {
      const r = await report();
      expect((await info(r.id, other.token)).status).toBe(404);
      expect((await call(`${H}/repair/accept`, { id: r.id, workerName: "外人" }, other.token)).http).toBe(404);
      expectField((await call(`${H}/repairDetail/create`, { repairId: r.id, note: "x" }, other.token)).body, "repairId", /.+/);
      expect((await info(r.id)).data.repairStatus).toBe("0");
    });
  });
}
