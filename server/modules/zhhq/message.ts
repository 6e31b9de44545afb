import type { Kysely } from "kysely";
import { resourceKey } from "../../../resources/define";
import { message } from "../../../resources/zhhq/message";
import type { SessionContext } from "../../http/endpoint";
import { fieldError } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import type { Row } from "../resource/rows";
import { enqueueMessage } from "../zhct/outbox";

/**
 * Notices to residents (issue 36, decision 083): sending one is its create. In the create's transaction every
 * resident living in the building, the room or the dormitory gets one message in the outbox (短信通知), named by the
 * notice (relatedEntity zhhq/message, relatedId), so its delivery state is the outbox's, per recipient, with 重发.
 * A notice that would reach nobody is refused and nothing is written.
 */

export const messageMessages = {
  building: "发送范围为楼栋时请输入楼栋",
  room: "发送范围为房间时请选择房间",
  nobody: (where: string) => `${where}没有在住人员，通知未发送`,
};

/** The outbox's name for a notice's messages (the 送达情况 link filters by it). */
export const NOTICE_ENTITY = "zhhq/message";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyTrx = Kysely<any>;

/** A notice's range is a building, a room or everyone, as its type says; the others are cleared. */
function checkTarget(values: Row) {
  const type = values.targetType;
  if (type === "building" && !(typeof values.building === "string" && values.building.trim())) throw fieldError("building", messageMessages.building);
  if (type === "room" && !values.dormitoryId) throw fieldError("dormitoryId", messageMessages.room);
  if (type !== "building") values.building = null;
  if (type !== "room") values.dormitoryId = null;
}

async function send(ctx: SessionContext, trx: AnyTrx, row: Row) {
  const tenantId = ctx.session.tenantId;
  let residents = trx
    .selectFrom("user_dormitory as s")
    .innerJoin("dormitory as d", (j) => j.onRef("d.tenant_id", "=", "s.tenant_id").onRef("d.id", "=", "s.dormitory_id"))
    .innerJoin("user_info as u", (j) => j.onRef("u.tenant_id", "=", "s.tenant_id").onRef("u.id", "=", "s.user_info_id"))
    .select(["u.user_name", "u.phone", "d.building", "d.room_no"])
    .where("s.tenant_id", "=", tenantId)
    .where("s.live_status", "=", 1);
  if (row.target_type === "building") residents = residents.where("d.building", "=", String(row.building).trim());
  if (row.target_type === "room") residents = residents.where("d.id", "=", row.dormitory_id as number);
  const people = (await residents.orderBy("d.building").orderBy("d.room_no").orderBy("s.bed_no").execute()) as Row[];
  if (!people.length) {
    if (row.target_type === "building") throw fieldError("building", messageMessages.nobody(`${String(row.building).trim()} `));
    if (row.target_type === "room") throw fieldError("dormitoryId", messageMessages.nobody("该房间"));
    throw fieldError("targetType", messageMessages.nobody("宿舍"));
  }
  for (const person of people) {
    await enqueueMessage(
      trx,
      { tenantId, recipientName: String(person.user_name), phone: (person.phone as string | null) ?? null, templateCode: "dormNotice", content: `【住宿通知】${String(row.content).trim()}`, relatedEntity: NOTICE_ENTITY, relatedId: Number(row.id), createdBy: ctx.session.userId },
      ctx.now,
    );
  }
  await trx.updateTable("resident_message").set({ recipient_count: people.length }).where("tenant_id", "=", tenantId).where("id", "=", row.id).execute();
}

export const messageServices: Record<string, ResourceService> = {
  [resourceKey(message)]: {
    beforeCreate: (_ctx, values) => checkTarget(values),
    afterCreate: (ctx, trx, row) => send(ctx, trx, row),
  },
};
