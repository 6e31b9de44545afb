import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dayOf } from "../../server/modules/zhct/months";
import { adminToken, createTestApp, expectField, loginAs, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { uploadedReference } from "../helpers/fixtures";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

type Row = Record<string, unknown>;
type Question = { id: number; questionTitle: string; selectType: string; options: Array<{ id: number; optionText: string }> };

const Z = "/api/v1/zhct";
const DAY = 86_400_000;

for (const dialect of dialects) {
  describe(`${dialect}: plate recognition, order pictures, the image library and satisfaction surveys`, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let restaurantId: number;
    let foods: number[];
    let image: string;
    let serial = 0;
    const uid = () => `${Date.now().toString(36)}${++serial}`;
    const dayFrom = (days: number) => dayOf(Date.now() + days * DAY);

    const call = (method: "GET" | "POST", path: string, body: unknown, as: string, headers: Record<string, string> = {}) => app.call<unknown>(method, path, { token: as, body, headers });
    async function ok(path: string, body: Row, as = tenant.token, headers: Record<string, string> = {}): Promise<Row> {
      const result = await call("POST", path, body, as, headers);
      expect(result.body, JSON.stringify(result.body)).toMatchObject({ status: 200 });
      return result.body.data as Row;
    }
    const get = async (path: string, as = tenant.token) => (await call("GET", path, undefined, as)).body;
    const count = async (table: "image_detect_log" | "image_detect_food" | "image_library" | "satisfaction_surve_answer" | "satisfaction_surve_answer_item" | "satisfaction_surve_question", tenantId = tenant.tenantId) =>
      Number((await app.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).where("tenant_id", "=", tenantId).executeTakeFirstOrThrow()).n);
    const diner = async (as = tenant.token) => ok(`${Z}/userInfo/create`, { userCode: `S${uid()}`, userName: "李满意" }, as);

    beforeAll(async () => {
      app = await createTestApp(dialect);
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, `sv${dialect}`);
      other = await createTenantWithAdmin(app, superToken, `svo${dialect}`);
      restaurantId = (await ok("/api/v1/auth/org/create", { orgName: "一食堂", orgType: "restaurant", sort: 0, status: "1" })).id as number;
      const foodTypeId = (await ok(`${Z}/foodType/create`, { typeName: "热菜", sort: 0, status: "1" })).id;
      foods = [];
      for (const [name, price] of [["红烧肉", 1200], ["清炒时蔬", 600]] as const) {
        foods.push((await ok(`${Z}/food/create`, { foodName: name, foodTypeId, restaurantId, price, onShelf: "1" })).id as number);
      }
      image = await uploadedReference(app, "image", tenant.tenantId);
      await ok("/api/v1/sys/device/create", { deviceCode: "DS-01", deviceName: "识别服务器一号", deviceType: "detect_server", status: "1" });
      await ok("/api/v1/sys/device/create", { deviceCode: "BOX-01", deviceName: "结算盒子", deviceType: "box", status: "1" });
      await ok("/api/v1/sys/device/create", { deviceCode: "DS-OFF", deviceName: "停用识别服务器", deviceType: "detect_server", status: "0" });
    }, 60_000);
    afterAll(async () => {
      await app.close();
    });

    // ---- Recognition -------------------------------------------------------------------------------------------

    const reportBody = (extra: Row = {}) => ({
      deviceCode: "DS-01",
      imageUrl: image,
      confidence: 873,
      foods: [
        { foodId: foods[0], foodCount: 1 },
        { foodId: foods[1], foodCount: 2, price: 550 },
      ],
      ...extra,
    });

    test("a recognition server reports a tray: foods priced (the device's price, else the food's), totals kept, status 正常", async () => {
      const logged = await ok(`${Z}/imageDetectLog/report`, reportBody());
      expect(logged).toMatchObject({ foodCount: 3, amount: 1200 + 2 * 550, cutImages: 0 });
      const detail = (await get(`${Z}/imageDetectLog/getDetail?id=${logged.id}`)).data as Row;
      expect(detail).toMatchObject({ deviceIdLabel: "识别服务器一号", confidence: 873, foodCount: 3, amount: 2300, detectStatus: "1" });
      expect(detail.detectNo).toMatch(/^DS-01 \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      // Entered by hand: seen now, named the same way, 正常 whatever the body says; a box is not a recognition server.
      const manual = await ok(`${Z}/imageDetectLog/create`, { deviceId: detail.deviceId, imageUrl: image, confidence: 500, detectStatus: "4", amount: 999 });
      expect(manual).toMatchObject({ detectStatus: "1", amount: 0, foodCount: 0 });
      expect(manual.detectNo).toMatch(/^DS-01 /);
      const box = ((await get("/api/v1/sys/device/findPage?deviceCode=BOX-01")).data as { records: Row[] }).records[0];
      expectField((await call("POST", `${Z}/imageDetectLog/create`, { deviceId: box.id, imageUrl: image, confidence: 500 }, tenant.token)).body, "deviceId", /不是识别服务器/);
      expect(detail.foods).toEqual([
        expect.objectContaining({ foodId: foods[0], foodName: "红烧肉", foodCount: 1, price: 1200, amount: 1200 }),
        expect.objectContaining({ foodId: foods[1], foodName: "清炒时蔬", foodCount: 2, price: 550, amount: 1100 }),
      ]);
      // The list screen shows it among the tenant's recognitions, not the other tenant's.
      const page = (await get(`${Z}/imageDetectLog/findPage?detectStatus=1`)).data as { records: Row[] };
      expect(page.records.map((r) => r.id)).toContain(logged.id);
      expect(((await get(`${Z}/imageDetectLog/findPage`, other.token)).data as { total: number }).total).toBe(0);
    });

    test("a report is refused when the device is not an enabled recognition server of the tenant, or a food or picture is not the tenant's; nothing is written", async () => {
      const before = [await count("image_detect_log"), await count("image_detect_food")];
      expectField((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ deviceCode: "BOX-01" }), tenant.token)).body, "deviceCode", "该设备不是识别服务器");
      expectField((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ deviceCode: "NOPE" }), tenant.token)).body, "deviceCode", "设备编码不存在");
      expect((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ deviceCode: "DS-OFF" }), tenant.token)).body).toMatchObject({ status: 403, message: "该设备已停用" });
      expectField((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ foods: [{ foodId: 1, foodCount: 1 }] }), tenant.token)).body, "foods[0].foodId", "第 1 个菜品不存在");
      expectField((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ orderId: 1 }), tenant.token)).body, "orderId", "关联订单不存在");
      const foreign = await uploadedReference(app, "image", other.tenantId);
      expectField((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ imageUrl: foreign }), tenant.token)).body, "imageUrl", "识别图片只能是本站上传的文件");
      // Out-of-range and hostile values are 400s naming the field, never 500s.
      expectField((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ confidence: 1001 }), tenant.token)).body, "confidence", "置信度（‰）不能大于 1000");
      expectField((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ confidence: 0.87 }), tenant.token)).body, "confidence", /整数/);
      expectField((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ deviceCode: "DS\u0000" }), tenant.token)).body, "deviceCode", /无法保存/);
      expectField((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ foods: [{ foodId: foods[0], foodCount: 1e20 }] }), tenant.token)).body, "foods.0.foodCount", /不能大于 99/);
      // The other tenant's admin cannot use this tenant's device.
      expectField((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ imageUrl: foreign }), other.token)).body, "deviceCode", "设备编码不存在");
      expect([await count("image_detect_log"), await count("image_detect_food")]).toEqual(before);
    });

    test("reporting needs the report permission: a signed-in user without it gets 403", async () => {
      const roleId = (await ok("/api/v1/auth/role/create", { roleCode: `viewer${uid()}`, roleName: "只读", roleType: "user", status: "1" })).id as number;
      const userName = `sv.${uid()}`;
      await ok("/api/v1/auth/user/create", { user: { userName, realName: "旁观", orgId: tenant.rootOrgId, status: "1", password: "Initial-Survey-1" }, roleIds: [roleId] });
      const token = await loginAs(app, userName, "Initial-Survey-1");
      await ok("/api/v1/auth/user/modifyPasswd", { oldPassword: "Initial-Survey-1", newPassword: "Changed-Survey-2" }, token);
      const before = await count("image_detect_log");
      expect((await call("POST", `${Z}/imageDetectLog/report`, reportBody(), token)).body.status).toBe(403);
      expect((await call("POST", `${Z}/satisfactionSurve/answer`, { surveyId: 1, userInfoId: 1, answers: [{ questionId: 1, optionIds: [1] }] }, token)).body.status).toBe(403);
      expect(await count("image_detect_log")).toBe(before);
    });

    test("a retried report with the same Idempotency-Key logs the tray once, even when eight retries race", async () => {
      const before = await count("image_detect_log");
      const key = `tray-${uid()}`;
      const results = await Promise.all(Array.from({ length: 8 }, () => call("POST", `${Z}/imageDetectLog/report`, reportBody(), tenant.token, { "Idempotency-Key": key })));
      expect(results.map((r) => r.body.status)).toEqual(Array(8).fill(200));
      expect(new Set(results.map((r) => (r.body.data as Row).id)).size).toBe(1);
      expect(await count("image_detect_log")).toBe(before + 1);
      // The same key with another body is a conflict.
      expect((await call("POST", `${Z}/imageDetectLog/report`, reportBody({ confidence: 1 }), tenant.token, { "Idempotency-Key": key })).body.status).toBe(409);
    });

    test("staff mark a recognition: anything but 正常 needs a remark; the marker is the server's; a stale mark is 409", async () => {
      const logged = await ok(`${Z}/imageDetectLog/report`, reportBody());
      const detail = (await get(`${Z}/imageDetectLog/getDetail?id=${logged.id}`)).data as Row;
      expectField((await call("POST", `${Z}/imageDetectLog/mark`, { id: logged.id, detectStatus: "4" }, tenant.token)).body, "remark", "识别状态不是正常时，请在备注中说明");
      expectField((await call("POST", `${Z}/imageDetectLog/mark`, { id: logged.id, detectStatus: "9", remark: "x" }, tenant.token)).body, "detectStatus", /不是可选的值/);
      const marked = await ok(`${Z}/imageDetectLog/mark`, { id: logged.id, updatedAt: detail.updatedAt, detectStatus: "4", remark: "把时蔬认成了红烧肉" });
      expect(marked).toMatchObject({ detectStatus: "4", remark: "把时蔬认成了红烧肉", markedBy: `sv${dialect}管理员` });
      // A second marker who saw the old version is told, and the mark stays.
      expect((await call("POST", `${Z}/imageDetectLog/mark`, { id: logged.id, updatedAt: detail.updatedAt, detectStatus: "1" }, tenant.token)).body).toMatchObject({ status: 409 });
      expect(((await get(`${Z}/imageDetectLog/getInfo?id=${logged.id}`)).data as Row).detectStatus).toBe("4");
      // Another tenant cannot see or mark it.
      expect((await call("POST", `${Z}/imageDetectLog/mark`, { id: logged.id, detectStatus: "1" }, other.token)).body.status).toBe(404);
      // The generic edit cannot set the status (it is the mark's).
      const edited = await ok(`${Z}/imageDetectLog/update`, { id: logged.id, detectStatus: "1", remark: "复核" });
      expect(edited).toMatchObject({ detectStatus: "4", remark: "复核" });
    });

    // ---- Order pictures and the image library ------------------------------------------------------------------

    test("order pictures name an order of the tenant (its number copied) and a picture type of the dictionary", async () => {
      const d = await diner();
      await ok(`${Z}/userAccountCharge/create`, { userInfoId: d.id, amount: 5000 });
      const order = await ok(`${Z}/cashier/pay`, { userInfoId: d.id, amount: 1800 });
      const created = await ok(`${Z}/mealOrderImageDetail/create`, { orderId: order.orderId, detectImageType: "1", imageUrl: image, shotAt: Date.now(), orderNo: "冒名" });
      expect(created).toMatchObject({ orderNo: order.orderNo, detectImageType: "1" });
      const body = { orderId: order.orderId, detectImageType: "2", imageUrl: image, shotAt: Date.now() };
      expectField((await call("POST", `${Z}/mealOrderImageDetail/create`, { ...body, detectImageType: "3" }, tenant.token)).body, "detectImageType", /不是可选的值/);
      expectField((await call("POST", `${Z}/mealOrderImageDetail/create`, { ...body, orderId: 1 }, tenant.token)).body, "orderId", "所选订单不存在");
      expectField((await call("POST", `${Z}/mealOrderImageDetail/create`, { ...body, imageUrl: "javascript:alert(1)" }, tenant.token)).body, "imageUrl", "图片只能是本站上传的文件");
      expectField((await call("POST", `${Z}/mealOrderImageDetail/create`, body, other.token)).body, "orderId", "所选订单不存在");
      // A recognition may name the order too.
      const logged = await ok(`${Z}/imageDetectLog/report`, reportBody({ orderId: order.orderId }));
      expect(((await get(`${Z}/imageDetectLog/getInfo?id=${logged.id}`)).data as Row).orderId).toBe(order.orderId);
    });

    test("cut pictures: a report's go to the library unconfirmed; a person confirms or relabels once; an added picture no longer changes", async () => {
      const cut = await uploadedReference(app, "image", tenant.tenantId);
      const logged = await ok(`${Z}/imageDetectLog/report`, reportBody({ foods: [{ foodId: foods[0], foodCount: 1, cutImageUrl: cut }] }));
      expect(logged.cutImages).toBe(1);
      const page = (await get(`${Z}/imageLibrary/findPage?detectLogId=${logged.id}`)).data as { records: Row[] };
      expect(page.records).toHaveLength(1);
      const picture = page.records[0];
      expect(picture).toMatchObject({ cutImageStatus: "0", cutImageSource: "detect", foodId: foods[0], imageUrl: cut });
      expect(picture.detectLogIdLabel).toMatch(/^DS-01 /);
      // Relabel to another food: added, the old label kept.
      const relabelled = await ok(`${Z}/imageLibrary/confirm`, { id: picture.id, foodId: foods[1] });
      expect(relabelled).toMatchObject({ cutImageStatus: "1", foodId: foods[1], originalFoodId: foods[0], confirmedBy: `sv${dialect}管理员` });
      expect((await call("POST", `${Z}/imageLibrary/confirm`, { id: picture.id }, tenant.token)).body).toMatchObject({ status: 409, message: "该切图已确认添加到图片库，不能再修改" });
      expect((await call("POST", `${Z}/imageLibrary/update`, { id: picture.id, foodId: foods[0] }, tenant.token)).body.status).toBe(409);

      // Entered by hand: the source names its record; a confirm keeps the label; racing confirms add it once.
      expectField((await call("POST", `${Z}/imageLibrary/create`, { imageUrl: cut, foodId: foods[0], cutImageSource: "detect" }, tenant.token)).body, "detectLogId", "来源为识别时，请选择识别记录");
      expectField((await call("POST", `${Z}/imageLibrary/create`, { imageUrl: cut, foodId: foods[0], cutImageSource: "order" }, tenant.token)).body, "orderId", "来源为订单时，请选择订单");
      expectField((await call("POST", `${Z}/imageLibrary/create`, { imageUrl: cut, foodId: foods[0], cutImageSource: "camera", detectLogId: logged.id }, tenant.token)).body, "cutImageSource", /不是可选的值/);
      const manual = await ok(`${Z}/imageLibrary/create`, { imageUrl: cut, foodId: foods[0], cutImageSource: "detect", detectLogId: logged.id, cutImageStatus: "1" });
      expect(manual.cutImageStatus).toBe("0");
      expectField((await call("POST", `${Z}/imageLibrary/confirm`, { id: manual.id, foodId: 1 }, tenant.token)).body, "foodId", "所选菜品标签不存在");
      expect((await call("POST", `${Z}/imageLibrary/confirm`, { id: manual.id }, other.token)).body.status).toBe(404);
      const racing = await Promise.all(Array.from({ length: 6 }, () => call("POST", `${Z}/imageLibrary/confirm`, { id: manual.id }, tenant.token)));
      expect(racing.map((r) => r.body.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      expect(((await get(`${Z}/imageLibrary/getInfo?id=${manual.id}`)).data as Row)).toMatchObject({ cutImageStatus: "1", foodId: foods[0], originalFoodId: null });
    });

    // ---- Surveys -----------------------------------------------------------------------------------------------

    const questions = [
      { questionTitle: "您对今天菜品的口味满意吗？", selectType: "1", options: [{ optionText: "满意" }, { optionText: "一般" }, { optionText: "不满意" }] },
      { questionTitle: "您希望增加哪些菜品？", selectType: "2", options: [{ optionText: "面食" }, { optionText: "粤菜" }, { optionText: "水果" }] },
    ];
    const surveyBody = (extra: Row = {}) => ({ surveyName: `十一月满意度调查${uid()}`, restaurantId, beginDate: dayFrom(-1), endDate: dayFrom(7), entityStatus: "1", questions, ...extra });
    async function survey(extra: Row = {}) {
      const created = await ok(`${Z}/satisfactionSurve/create`, surveyBody(extra));
      return { id: created.id as number, questions: created.questions as Question[], updatedAt: created.updatedAt as number };
    }
    const answers = (qs: Question[], picks: number[][]) => qs.map((q, i) => ({ questionId: q.id, optionIds: picks[i].map((p) => q.options[p].id) }));

    test("a survey is saved with its questions and options in one go; the form's rules are the server's", async () => {
      const s = await survey();
      expect(s.questions.map((q) => [q.questionTitle, q.selectType, q.options.map((o) => o.optionText)])).toEqual([
        ["您对今天菜品的口味满意吗？", "1", ["满意", "一般", "不满意"]],
        ["您希望增加哪些菜品？", "2", ["面食", "粤菜", "水果"]],
      ]);
      const info = (await get(`${Z}/satisfactionSurve/getInfo?id=${s.id}`)).data as Row;
      expect(info).toMatchObject({ questionCount: 2, answerCount: 0, restaurantIdLabel: "一食堂", entityStatus: "1" });
      const before = await count("satisfaction_surve_question");
      expectField((await call("POST", `${Z}/satisfactionSurve/create`, surveyBody({ questions: [] }), tenant.token)).body, "questions", "请至少添加一道题目");
      expectField((await call("POST", `${Z}/satisfactionSurve/create`, surveyBody({ questions: [{ ...questions[0], options: [{ optionText: "只有一个" }] }] }), tenant.token)).body, "questions.0.options", "每道题至少需要两个选项");
      expectField((await call("POST", `${Z}/satisfactionSurve/create`, surveyBody({ questions: [{ ...questions[0], selectType: "3" }] }), tenant.token)).body, "questions.0.selectType", "请选择单选或多选");
      expectField((await call("POST", `${Z}/satisfactionSurve/create`, surveyBody({ questions: [{ ...questions[0], questionTitle: "  " }] }), tenant.token)).body, "questions.0.questionTitle", "请输入题目");
      expectField((await call("POST", `${Z}/satisfactionSurve/create`, surveyBody({ endDate: dayFrom(-2) }), tenant.token)).body, "endDate", "结束日期不能早于开始日期");
      expectField((await call("POST", `${Z}/satisfactionSurve/create`, surveyBody({ restaurantId: tenant.rootOrgId }), tenant.token)).body, "restaurantId", /不是餐厅/);
      expectField((await call("POST", `${Z}/satisfactionSurve/create`, surveyBody({ entityStatus: "2" }), tenant.token)).body, "entityStatus", /不是可选的值/);
      expect(await count("satisfaction_surve_question")).toBe(before);
      // Edited before anyone answered: the questions are replaced.
      const edited = await ok(`${Z}/satisfactionSurve/update`, { id: s.id, updatedAt: s.updatedAt, questions: [questions[1]] });
      expect(edited).toMatchObject({ questionCount: 1 });
      expect((edited.questions as Question[]).map((q) => q.questionTitle)).toEqual(["您希望增加哪些菜品？"]);
      expect(await count("satisfaction_surve_question")).toBe(before - 1);
    });

    test("answers: refused when unpublished, outside the period, with a foreign option, two options for a single choice, or a second time", async () => {
      const s = await survey();
      const d = await diner();
      const submit = (body: Row, as = tenant.token) => call("POST", `${Z}/satisfactionSurve/answer`, body, as);
      const base = { surveyId: s.id, userInfoId: d.id };
      const draft = await survey({ entityStatus: "0" });
      expect((await submit({ surveyId: draft.id, userInfoId: d.id, answers: answers(draft.questions, [[0], [0]]) })).body).toMatchObject({ status: 409, message: "问卷未发布，不能作答" });
      const later = await survey({ beginDate: dayFrom(2), endDate: dayFrom(3) });
      expect((await submit({ surveyId: later.id, userInfoId: d.id, answers: answers(later.questions, [[0], [0]]) })).body).toMatchObject({ status: 409, message: `不在问卷开放时间内（${dayFrom(2)} 至 ${dayFrom(3)}）` });
      const over = await survey({ beginDate: dayFrom(-5), endDate: dayFrom(-1) });
      expect((await submit({ surveyId: over.id, userInfoId: d.id, answers: answers(over.questions, [[0], [0]]) })).body.status).toBe(409);
      const [q1, q2] = s.questions;
      expectField((await submit({ ...base, answers: [{ questionId: q1.id, optionIds: [q2.options[0].id] }, { questionId: q2.id, optionIds: [q2.options[0].id] }] })).body, "answers[0].optionIds", "所选选项不属于该题目");
      expectField((await submit({ ...base, answers: [{ questionId: q1.id, optionIds: [q1.options[0].id, q1.options[1].id] }, { questionId: q2.id, optionIds: [q2.options[0].id] }] })).body, "answers[0].optionIds", "第 1 题是单选题，只能选择一个选项");
      expectField((await submit({ ...base, answers: [{ questionId: q1.id, optionIds: [q1.options[0].id] }] })).body, "answers", "请回答第 2 题「您希望增加哪些菜品？」");
      expectField((await submit({ ...base, answers: [{ questionId: later.questions[0].id, optionIds: [later.questions[0].options[0].id] }] })).body, "answers[0].questionId", "该题目不属于此问卷");
      expectField((await submit({ ...base, answers: [{ questionId: q1.id, optionIds: [] }] })).body, "answers.0.optionIds", "请至少选择一个选项");
      expectField((await submit({ ...base, userInfoId: 1, answers: answers(s.questions, [[0], [0]]) })).body, "userInfoId", "答卷人不存在");
      expectField((await submit({ ...base, answers: "all" })).body, "answers", "答案应为列表");
      // The other tenant cannot answer this tenant's survey, nor for a diner of its own.
      expect((await submit({ ...base, answers: answers(s.questions, [[0], [0]]) }, other.token)).body.status).toBe(404);
      expect(await count("satisfaction_surve_answer")).toBe(0);

      const first = await ok(`${Z}/satisfactionSurve/answer`, { ...base, answers: answers(s.questions, [[0], [0, 2]]) });
      expect(first).toMatchObject({ options: 3 });
      expect((await submit({ ...base, answers: answers(s.questions, [[1], [1]]) })).body).toMatchObject({ status: 409, message: "该人员已提交过此问卷，不能重复作答" });
      // Once answered, the questions stay; the name and status may still change.
      const info = (await get(`${Z}/satisfactionSurve/getInfo?id=${s.id}`)).data as Row;
      expect((await call("POST", `${Z}/satisfactionSurve/update`, { id: s.id, questions: [questions[0]] }, tenant.token)).body).toMatchObject({ status: 409, message: /已有人作答/ });
      const renamed = await ok(`${Z}/satisfactionSurve/update`, { id: s.id, updatedAt: info.updatedAt, surveyName: "改名后的问卷", entityStatus: "0", questions });
      expect(renamed).toMatchObject({ surveyName: "改名后的问卷", entityStatus: "0" });
      expect((renamed.questions as Question[]).map((q) => q.id)).toEqual(s.questions.map((q) => q.id));
      // A survey with answers is not deleted.
      expect((await call("GET", `${Z}/satisfactionSurve/delete?id=${s.id}`, undefined, tenant.token)).body.status).toBe(409);
    });

    test("one diner answering from eight terminals at once is recorded once", async () => {
      const s = await survey();
      const d = await diner();
      const body = { surveyId: s.id, userInfoId: d.id, answers: answers(s.questions, [[2], [1]]) };
      const results = await Promise.all(Array.from({ length: 8 }, () => call("POST", `${Z}/satisfactionSurve/answer`, body, tenant.token)));
      expect(results.map((r) => r.body.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      const stored = await app.database.db.selectFrom("satisfaction_surve_answer").select("id").where("tenant_id", "=", tenant.tenantId).where("survey_id", "=", s.id).execute();
      expect(stored).toHaveLength(1);
      const items = await app.database.db.selectFrom("satisfaction_surve_answer_item").select("id").where("tenant_id", "=", tenant.tenantId).where("survey_id", "=", s.id).execute();
      expect(items).toHaveLength(2);
    });

    test("statistics count answers per question and option with percentages, and export them as XLSX", async () => {
      const s = await survey({ surveyName: `统计问卷${uid()}` });
      // Four diners: taste 满意 ×3, 一般 ×1; wishes (multiple) 面食 ×2, 粤菜 ×1, 水果 ×4.
      const picks = [
        [[0], [0, 2]],
        [[0], [2]],
        [[0], [0, 1, 2]],
        [[1], [2]],
      ];
      for (const p of picks) await ok(`${Z}/satisfactionSurve/answer`, { surveyId: s.id, userInfoId: (await diner()).id, answers: answers(s.questions, p) });
      const stats = (await get(`${Z}/satisfactionSurveStatics/findPage?surveyId=${s.id}`)).data as { answerCount: number; survey: Row; surveys: Row[]; questions: Array<{ options: Array<{ optionText: string; count: number; percent: number }> }> };
      expect(stats.answerCount).toBe(4);
      expect(stats.survey).toMatchObject({ id: s.id, restaurantName: "一食堂" });
      expect(stats.surveys.map((x) => x.id)).toContain(s.id);
      expect(stats.questions.map((q) => q.options.map((o) => [o.optionText, o.count, o.percent]))).toEqual([
        [["满意", 3, 75], ["一般", 1, 25], ["不满意", 0, 0]],
        [["面食", 2, 50], ["粤菜", 1, 25], ["水果", 4, 100]],
      ]);
      // The other tenant sees none of it.
      expect((await get(`${Z}/satisfactionSurveStatics/findPage?surveyId=${s.id}`, other.token)).status).toBe(404);
      expect(((await get(`${Z}/satisfactionSurveStatics/findPage`, other.token)).data as Row).survey).toBeNull();
      expect((await get(`${Z}/satisfactionSurveStatics/findPage?surveyId=abc`)).status).toBe(400);

      const response = await app.api.handle(new Request(`http://canteen.test${Z}/satisfactionSurveStatics/export?surveyId=${s.id}`, { headers: { Authorization: `Bearer ${tenant.token}` } }), "127.0.0.1");
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toMatch(/spreadsheetml/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await response.arrayBuffer());
      const rows = (workbook.getWorksheet("满意度统计")?.getSheetValues() ?? []).filter(Boolean).map((r) => (r as unknown[]).slice(1));
      expect(rows).toContainEqual([1, "您对今天菜品的口味满意吗？", "单选", "满意", 3, 75]);
      expect(rows).toContainEqual([2, "您希望增加哪些菜品？", "多选", "水果", 4, 100]);
    });
  });
}
