import { expect } from "vitest";
import { chinaDay, DAY_MS } from "../../resources/chinaTime";
import type { TestApp } from "./api";
import { stockClient, type Envelope, type Row } from "./stock";

/**
 * Purchasing as a client calls it (issue 41): the stock client's master data and queries, plus a supplier's contract
 * price, requests, orders and receipts by the paths.
 */
export const day = (offset: number) => chinaDay(Date.now() + offset * DAY_MS);

export type OrderInfo = Row & { status: string; lines: Array<Row & { id: number; goodsId: number; quantity: number; price: number; receivedQuantity: number }> };

export function purchaseClient(app: TestApp, token: () => string) {
  const stock = stockClient(app, token);
  const client = {
    ...stock,
    /** A contract price (fen) of the supplier for the goods, valid from 30 days ago. */
    contract: (supplierId: number, goodsId: number, price: number, as = token()) =>
      stock.ok("supplierGoods/create", { supplierId, goodsId, price, validFrom: day(-30) }, as),
    order: async (body: Row, as = token()) => (await stock.ok<Row & { id: number; lines: Row[] }>("purchse/create", body, as)).id,
    /** Creates, submits and approves an order; answers its id. */
    async approvedOrder(body: Row, as = token()): Promise<number> {
      const id = await client.order(body, as);
      await stock.ok("purchse/submit", { id }, as);
      await stock.ok("purchse/approve", { id }, as);
      return id;
    },
    orderInfo: async (id: number, as = token()) => {
      const answer = await stock.get("purchse/getInfo", { id }, as);
      expect(answer, "purchse/getInfo").toMatchObject({ status: 200 });
      return answer.data as OrderInfo;
    },
    receive: (body: Row, as = token(), headers?: Record<string, string>) => stock.post("purchse/receive", body, as, headers) as Promise<Envelope<{ warehouseInId: number; id: number }>>,
  };
  return client;
}

export type PurchaseClient = ReturnType<typeof purchaseClient>;
