import { defineResource } from "../define";

/**
 * Notices to residents (spec §2 /zhhq message, issue 36, decision 083): to a building, a room or everyone living in
 * the dormitory. Sending one puts a message per resident in the existing outbox (短信通知, server/modules/zhct/outbox.ts),
 * in the same transaction; each recipient's delivery state is the outbox's (送达情况, with its 重发). Notices are
 * never edited or deleted: they are what was sent. The rules are in server/modules/zhhq/message.ts.
 */
export const message = defineResource({
  module: "zhhq",
  entity: "message",
  screen: "message",
  screenBase: "/zhhq",
  table: "resident_message",
  title: "住宿通知",
  scope: "tenant",
  labelField: "content",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "export"],
  rowLinks: [{ action: "view", path: "/zhct/userinfosendmessage/index?relatedEntity=zhhq/message&relatedId=:id", label: "送达情况" }],
  fields: [
    { name: "targetType", label: "发送范围", type: "enum", dict: "noticeTarget", required: true, filter: "eq" },
    { name: "building", label: "楼栋", type: "text", filter: "like", max: 50, placeholder: "如：1号楼", description: "发送范围为楼栋时必填" },
    { name: "dormitoryId", label: "房间", type: "relation", relation: "zhhq/dormitory", filter: "eq", description: "发送范围为房间时必选" },
    { name: "content", label: "通知内容", type: "longText", required: true, max: 300, list: true },
    { name: "recipientCount", label: "接收人数", type: "number", readOnly: true },
  ],
});
