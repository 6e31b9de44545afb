import type { Kysely } from "kysely";
import { chinaDay, chinaMinute } from "../../../resources/chinaTime";
import { permissionCode, resourceKey, type FieldDef, type ResourceTransition } from "../../../resources/define";
import { fieldSchema, recordId } from "../../../resources/schemas";
import { z } from "../../../resources/z";
import { travelRequests, vehicles } from "../../../resources/zhhq/vehicle";
import { endpoint, permission, type Endpoint, type SessionContext } from "../../http/endpoint";
import { ApiError, fieldError, Status } from "../../http/envelope";
import { reasonField } from "../../http/reason";
import { nextDocumentNumber, runResourceStep } from "../../kernel/transitions";
import { inWriteTransaction } from "../../kernel/writeTransaction";
import type { ResourceService } from "../resource/engine";
import { declaredDefaults } from "../resource/declaredDefaults";
import type { Row } from "../resource/rows";

/**
 * Vehicles and travel requests (issue 36, decision 083). A dispatch locks the car's row and then the driver's
 * (PostgreSQL; SQLite's writer holds the whole database already) before it looks for another dispatch of either in an
 * overlapping time range, so of two dispatches racing for one car or one driver the second waits for the first and
 * then sees it. The odometer only moves forward: out not below the car's, in not below out, and the car's advances.
 */

export const vehicleMessages = {
  endBeforeStart: "结束时间应晚于开始时间",
  vehicleMissing: "车辆不存在",
  driverMissing: "驾驶员不存在",
  noDriver: "该车辆没有默认驾驶员，请选择驾驶员",
  outOfService: (plate: string, status: string) => `车辆 ${plate} 当前为「${status}」，不能派车`,
  insurance: (plate: string, expiry: string, until: string) => `车辆 ${plate} 的保险 ${expiry} 到期，用车至 ${until}，不能派车`,
  inspection: (plate: string, expiry: string, until: string) => `车辆 ${plate} 的年检 ${expiry} 到期，用车至 ${until}，不能派车`,
  seats: (seats: number, passengers: number) => `该车辆 ${seats} 个座位，少于乘车人数 ${passengers}`,
  vehicleBusy: (plate: string, other: string, range: string) => `车辆 ${plate} 已派给用车申请 ${other}（${range}），时间重叠`,
  driverBusy: (name: string, other: string, range: string) => `驾驶员 ${name} 已派给用车申请 ${other}（${range}），时间重叠`,
  odometerOut: (odometer: number) => `出车里程不能小于车辆当前里程 ${odometer} 公里`,
  odometerIn: (out: number) => `还车里程不能小于出车里程 ${out} 公里`,
  inUse: "该车辆已有用车申请，不能删除",
};

// The engine hands its hooks an untyped transaction (it serves every table).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyTrx = Kysely<any>;

const VEHICLE_STATUS: Record<string, string> = { "1": "可用", "2": "维修中", "0": "停用" };
/** A request holds its car and driver while approved or out. */
const HOLDING = [1, 2];

/** Reads a row of the tenant, locked to the end of the transaction on PostgreSQL. */
async function lockRow(ctx: SessionContext, trx: AnyTrx, table: string, id: unknown): Promise<Row | undefined> {
  const query = trx.selectFrom(table).selectAll().where("tenant_id", "=", ctx.session.tenantId).where("id", "=", id);
  return (await (ctx.services.dialect === "postgres" ? query.forNoKeyUpdate() : query).executeTakeFirst()) as Row | undefined;
}

/** A request's number: YC + the China day + a sequence of the day (YC20261129-001), counted as a document's. */
const REQUEST_NUMBERING = { docType: resourceKey(travelRequests), numbering: { prefix: "YC", digits: 3 } };

const rangeText = (row: Row) => `${chinaMinute(Number(row.start_time))}–${chinaMinute(Number(row.end_time))}`;

/** Another request holding the car or the driver in a time range that overlaps this one's. */
async function overlapping(trx: AnyTrx, tenantId: number, request: Row, column: "vehicle_id" | "driver_id", id: number): Promise<Row | undefined> {
  return (await trx
    .selectFrom("travel_request")
    .select(["request_no", "start_time", "end_time"])
    .where("tenant_id", "=", tenantId)
    .where(column, "=", id)
    .where("id", "!=", request.id as number)
    .where("request_status", "in", HOLDING)
    .where("start_time", "<", request.end_time as number)
    .where("end_time", ">", request.start_time as number)
    .orderBy("start_time")
    .limit(1)
    .executeTakeFirst()) as Row | undefined;
}

/**
 * 派车's rules, with the car and then the driver locked: the car in service, insured and inspected through the trip's
 * last day, seats for the passengers, and neither held by another request in an overlapping time range.
 */
async function checkDispatch(ctx: SessionContext, trx: AnyTrx, request: Row, vehicleId: number, driverId: number | undefined): Promise<{ vehicle: Row; driver: Row }> {
  const tenantId = ctx.session.tenantId;
  const vehicle = await lockRow(ctx, trx, "vehicle", vehicleId);
  if (!vehicle) throw fieldError("vehicleId", vehicleMessages.vehicleMissing);
  const plate = String(vehicle.plate_no);
  if (String(vehicle.status) !== "1") throw new ApiError(Status.CONFLICT, vehicleMessages.outOfService(plate, VEHICLE_STATUS[String(vehicle.status)] ?? String(vehicle.status)));
  const until = chinaDay(Number(request.end_time));
  if (String(vehicle.insurance_expiry) < until) throw new ApiError(Status.CONFLICT, vehicleMessages.insurance(plate, String(vehicle.insurance_expiry), until));
  if (String(vehicle.inspection_expiry) < until) throw new ApiError(Status.CONFLICT, vehicleMessages.inspection(plate, String(vehicle.inspection_expiry), until));
  if (Number(vehicle.seats) < Number(request.passengers)) throw fieldError("vehicleId", vehicleMessages.seats(Number(vehicle.seats), Number(request.passengers)));
  const chosen = driverId ?? (vehicle.driver_id === null ? undefined : Number(vehicle.driver_id));
  if (chosen === undefined) throw fieldError("driverId", vehicleMessages.noDriver);
  const driver = await lockRow(ctx, trx, "user_info", chosen);
  if (!driver) throw fieldError("driverId", vehicleMessages.driverMissing);
  const carBusy = await overlapping(trx, tenantId, request, "vehicle_id", vehicleId);
  if (carBusy) throw new ApiError(Status.CONFLICT, vehicleMessages.vehicleBusy(plate, String(carBusy.request_no), rangeText(carBusy)));
  const driverBusy = await overlapping(trx, tenantId, request, "driver_id", chosen);
  if (driverBusy) throw new ApiError(Status.CONFLICT, vehicleMessages.driverBusy(String(driver.user_name), String(driverBusy.request_no), rangeText(driverBusy)));
  return { vehicle, driver };
}

export const vehicleServices: Record<string, ResourceService> = {
  [resourceKey(vehicles)]: {
    ...declaredDefaults(vehicles),
    async onDelete(ctx, trx, current) {
      const used = await trx.selectFrom("travel_request").select("id").where("tenant_id", "=", ctx.session.tenantId).where("vehicle_id", "=", current.id).limit(1).executeTakeFirst();
      if (used) throw new ApiError(Status.CONFLICT, vehicleMessages.inUse);
    },
  },
  [resourceKey(travelRequests)]: {
    beforeCreate(_ctx, values) {
      if (Number(values.endTime) <= Number(values.startTime)) throw fieldError("endTime", vehicleMessages.endBeforeStart);
      values.requestStatus = "0";
    },
    async afterCreate(ctx, trx, row) {
      const requestNo = await nextDocumentNumber(trx, REQUEST_NUMBERING, ctx.session.tenantId, ctx.now);
      await trx.updateTable("travel_request").set({ request_no: requestNo }).where("tenant_id", "=", ctx.session.tenantId).where("id", "=", row.id).execute();
    },
  },
};

// ---- Steps -------------------------------------------------------------------------------------------------------

type StepName = "dispatch" | "depart" | "return" | "reject" | "cancel";
const transition = (name: StepName) => travelRequests.workflow.transitions.find((t) => t.name === name) as ResourceTransition;
const inputs = (name: StepName) => Object.fromEntries((transition(name).input ?? []).map((f: FieldDef) => [f.name, fieldSchema(f, false)]));
const id = recordId("用车申请", "请选择用车申请");
const bodies = {
  dispatch: z.strictObject({ id, ...inputs("dispatch") }),
  depart: z.strictObject({ id, ...inputs("depart") }),
  return: z.strictObject({ id, ...inputs("return") }),
  reject: z.strictObject({ id, reason: reasonField("驳回原因") }),
  cancel: z.strictObject({ id }),
};

/** Takes a step of the request: the status, who (the log) and when, and what the step adds. */
async function step(ctx: SessionContext, name: StepName, body: Row) {
  const now = ctx.now;
  const tenantId = ctx.session.tenantId;
  return inWriteTransaction(ctx.services.db, ctx.services.dialect, async (trx) => {
    const any = trx as unknown as AnyTrx;
    let set: Row = {};
    const { row, reason } = await runResourceStep(trx, ctx, travelRequests, name, {
      id: body.id as number,
      reason: body.reason,
      guard: async (current) => {
        if (name === "dispatch") {
          const { driver } = await checkDispatch(ctx, any, current, body.vehicleId as number, body.driverId as number | undefined);
          set = { vehicle_id: body.vehicleId, driver_id: driver.id, dispatched_at: now };
        } else if (name === "depart") {
          const vehicle = (await lockRow(ctx, any, "vehicle", current.vehicle_id)) as Row;
          const out = Number(body.odometerOut);
          if (out < Number(vehicle.odometer)) throw fieldError("odometerOut", vehicleMessages.odometerOut(Number(vehicle.odometer)));
          set = { odometer_out: out, departed_at: now };
        } else if (name === "return") {
          const odometerIn = Number(body.odometerIn);
          const out = Number(current.odometer_out);
          if (odometerIn < out) throw fieldError("odometerIn", vehicleMessages.odometerIn(out));
          set = { odometer_in: odometerIn, distance: odometerIn - out, returned_at: now };
        }
      },
      set: () => set,
      effect: async (current, why) => {
        if (name === "reject") await any.updateTable("travel_request").set({ reject_reason: why }).where("tenant_id", "=", tenantId).where("id", "=", current.id).execute();
        if (name !== "return") return {};
        // The car's odometer advances to the reading it came back with; an older trip's return never winds it back.
        const odometerIn = Number(body.odometerIn);
        await any.updateTable("vehicle").set({ odometer: odometerIn, updated_at: now, updated_by: ctx.session.userId }).where("tenant_id", "=", tenantId).where("id", "=", current.vehicle_id).where("odometer", "<", odometerIn).execute();
        return { distance: odometerIn - Number(current.odometer_out) };
      },
    });
    const after = (await any
      .selectFrom("travel_request as r")
      .leftJoin("vehicle as v", (j) => j.onRef("v.tenant_id", "=", "r.tenant_id").onRef("v.id", "=", "r.vehicle_id"))
      .leftJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "r.tenant_id").onRef("u.id", "=", "r.driver_id"))
      .select(["r.id", "r.request_no", "r.request_status", "r.vehicle_id", "v.plate_no", "r.driver_id", "u.user_name", "r.odometer_out", "r.odometer_in", "r.distance"])
      .where("r.tenant_id", "=", tenantId)
      .where("r.id", "=", row.id as number)
      .executeTakeFirst()) as Row;
    return {
      id: row.id,
      requestNo: after.request_no,
      requestStatus: String(after.request_status),
      vehicleId: after.vehicle_id,
      vehicleIdLabel: after.plate_no ?? null,
      driverId: after.driver_id,
      driverIdLabel: after.user_name ?? null,
      odometerOut: after.odometer_out,
      odometerIn: after.odometer_in,
      distance: after.distance,
      rejectReason: reason,
    };
  });
}

const session = (ctx: unknown) => ctx as SessionContext;
const SUMMARIES: Record<StepName, string> = {
  dispatch: "派车：已提交 → 已批准 { id, vehicleId, driverId（不填为车辆的默认驾驶员） }；车辆或驾驶员与其他已批准、已出车的申请时间重叠、车辆停用或维修中、保险或年检在用车结束日前到期 → 409",
  depart: "出车：已批准 → 已出车 { id, odometerOut }，出车里程不小于车辆当前里程",
  return: "还车：已出车 → 已还车 { id, odometerIn }，行驶里程 = 还车里程 − 出车里程（不为负），车辆当前里程更新为还车里程",
  reject: "驳回：已提交 → 已驳回，须填写原因 { id, reason }",
  cancel: "取消：已提交或已批准 → 已取消 { id }，已派的车辆和驾驶员空出",
};

export const vehicleEndpoints: Endpoint[] = (Object.keys(bodies) as StepName[]).map((name) =>
  endpoint({
    method: "POST",
    path: `/api/v1/zhhq/travelRequests/${name}`,
    summary: SUMMARIES[name],
    access: permission(permissionCode(travelRequests, name)),
    body: bodies[name],
    handle: (ctx, { body }) => step(session(ctx), name, body as Row),
  }),
);
