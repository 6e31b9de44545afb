import { defineResource } from "../define";
import { entityTitle } from "../operations";

/**
 * The SMS / notification outbox and its log (spec §2 userinfosendmessage): modules enqueue a message inside their own
 * transaction (server/modules/zhct/outbox.ts) and a dispatcher sends it; the list shows what went to whom and how.
 */
export const userInfoSendMessage = defineResource({
  module: "zhct",
  entity: "userInfoSendMessage",
  screen: "userinfosendmessage",
  screenBase: "/zhct",
  table: "user_info_send_message",
  title: "短信通知",
  menuTitle: "短信通知记录",
  scope: "tenant",
  labelField: "recipientName",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: [],
  // state 0 待发送, 1 已发送, 2 发送失败: only a failed message may be sent again (decision 070).
  workflow: {
    field: "state",
    colors: { "0": "blue", "1": "green", "2": "red" },
    refusal: "只有发送失败的消息可以重发",
    notFound: "消息不存在或已被删除",
    transitions: [{ name: "resend", label: "重发", title: "重发短信通知", from: ["2"], to: "0", note: "重新加入发送队列，几秒内由发送程序发出。", done: "已重新加入发送队列" }],
  },
  // The dispatcher's scan: what is due, across tenants.
  indexes: [["state", "nextAttemptAt"], ["relatedEntity", "relatedId"]],
  fields: [
    { name: "recipientName", label: "接收人", type: "text", required: true, filter: "like", max: 50 },
    { name: "phone", label: "手机号", type: "text", filter: "like", max: 20 },
    { name: "templateCode", label: "模板", type: "text", filter: "eq", max: 50 },
    { name: "content", label: "内容", type: "longText", required: true, list: true, max: 500 },
    { name: "state", label: "状态", type: "enum", dict: "messageState", required: true, filter: "eq", defaultValue: "0" },
    { name: "attempts", label: "发送次数", type: "number", required: true, defaultValue: 0, min: 0, max: 1000 },
    { name: "lastError", label: "失败原因", type: "longText", list: true, max: 500 },
    { name: "sentAt", label: "发送时间", type: "datetime", sortable: true },
    { name: "relatedEntity", label: "关联业务", type: "text", filter: "eq", max: 50, show: (value, _record, text) => (value ? entityTitle(value, text) : "—") },
    { name: "relatedId", label: "关联记录", type: "number", filter: "eq", min: 0, max: Number.MAX_SAFE_INTEGER, list: false },
    { name: "nextAttemptAt", label: "下次发送时间", type: "datetime", required: true, list: false, defaultValue: 0 },
    { name: "leaseHolder", label: "发送实例", type: "text", max: 200, list: false, hidden: true },
    { name: "leasedUntil", label: "租约到期", type: "datetime", list: false, hidden: true },
  ],
});
