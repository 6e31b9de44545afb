import type { Kysely } from "kysely";
import { quantityToThousandths } from "../../../resources/quantity";
import { scPurchase } from "../../../resources/sc/purchase";
import { fieldError } from "../../http/envelope";
import type { DocumentRules, TransitionRun } from "../../kernel/transitions";
import type { Row } from "../resource/rows";
import { lineAmount } from "../zhhq/stock";
import { refuseClosedMonths } from "./closedMonths";

/**
 * A purchase's rules (issue 37): each line's amount is quantity × price (half up, exact), the total is Σ lines, and
 * the paid amount moves only by the steps 登记付款 (less than what is left) and 付清 (what is left).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export const purchaseMessages = {
  payTooMuch: (left: number) => `本次付款应小于未付金额 ${(left / 100).toFixed(2)} 元；全额付款请用「付清」`,
  supplierMissing: "请选择供应商或仓库供应商",
};

/** Lines given whole (the editor's) or by id keeping what they do not give: the stored line fills what is missing. */
async function fillPurchase(_ctx: unknown, db: AnyDb, header: Row, lines: Row[], current?: Row) {
  if (!current) {
    header.paidAmount = 0;
    if (header.supplierId == null && header.warehouseSupplierId == null) throw fieldError("supplierId", purchaseMessages.supplierMissing);
  }
  if (!current && !lines.length) return;
  if (current && !lines.length) return;
  const stored = current ? new Map(((await db.selectFrom(scPurchase.lines.table).selectAll().where("tenant_id", "=", current.tenant_id).where("document_id", "=", current.id).execute()) as Row[]).map((r) => [Number(r.id), r])) : new Map<number, Row>();
  let total = 0;
  for (const line of lines) {
    const before = line.id === undefined ? undefined : stored.get(Number(line.id));
    const quantity = typeof line.quantity === "number" ? quantityToThousandths(line.quantity) : before ? Number(before.quantity) : null;
    const price = typeof line.price === "number" ? line.price : before ? Number(before.price) : null;
    if (quantity === null || price === null) continue;
    line.amount = lineAmount(quantity, price);
    total += line.amount as number;
  }
  header.totalAmount = total;
}

// The header as the API answers it (camelCase fields).
const left = (run: TransitionRun) => Number(run.header.totalAmount ?? 0) - Number(run.header.paidAmount ?? 0);

const setPaid = (run: TransitionRun, trx: AnyDb, paid: number) =>
  trx.updateTable(scPurchase.header.table).set({ paid_amount: paid }).where("tenant_id", "=", run.ctx.session.tenantId).where("id", "=", run.header.id).execute();

/** A purchase is dated into its place's month: neither it nor what it moves from may be a confirmed month (decision 084). */
const refuseClosedMonth: DocumentRules["guardWrite"] = async (ctx, trx, values, current) => {
  const now = { placeId: Number(values.restaurantId ?? current?.restaurant_id), month: String(values.purchaseDate ?? current?.purchase_date ?? "").slice(0, 7) };
  const before = current ? [{ placeId: Number(current.restaurant_id), month: String(current.purchase_date).slice(0, 7) }] : [];
  await refuseClosedMonths(trx, ctx.session.tenantId, [...before, now]);
};

export const purchaseRules: Record<string, DocumentRules> = {
  [scPurchase.docType]: {
    fill: fillPurchase as DocumentRules["fill"],
    guardWrite: refuseClosedMonth,
    guards: {
      partPayment: (run) => {
        const amount = Number(run.input.payAmount);
        if (amount >= left(run)) throw fieldError("payAmount", purchaseMessages.payTooMuch(left(run)));
      },
    },
    effects: {
      addPayment: async (run, trx) => {
        await setPaid(run, trx, Number(run.header.paidAmount ?? 0) + Number(run.input.payAmount));
      },
      payRest: async (run, trx) => {
        await setPaid(run, trx, Number(run.header.totalAmount ?? 0));
      },
    },
  },
};
