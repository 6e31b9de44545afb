import { expect } from "vitest";
import type { TestApp } from "./api";

/**
 * The stock API as a client calls it (issue 40's contract): master data by name, the four stock documents by their
 * paths, and the three queries. Every call answers its envelope; `ok` answers the data of a 200 or fails naming it.
 */
export const H = "/api/v1/zhhq";

export type Row = Record<string, unknown>;
export type Envelope<T = unknown> = { status: number; message: string; data: T };

export type StockDoc = "warehouseIn" | "warehouseOut" | "warehouseInReturn" | "warehouseOutReturn" | "warehouseTransfer" | "warehouseCheck";

export function stockClient(app: TestApp, token: () => string) {
  let serial = 0;
  const uid = () => `${Date.now().toString(36)}${process.pid.toString(36)}${++serial}`;
  async function post(path: string, body: unknown, as = token(), headers?: Record<string, string>): Promise<Envelope> {
    return (await app.call<unknown>("POST", `${H}/${path}`, { token: as, body, headers })).body as Envelope;
  }
  async function get(path: string, query: Row = {}, as = token()): Promise<Envelope> {
    const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
    return (await app.call<unknown>("GET", `${H}/${path}?${params}`, { token: as })).body as Envelope;
  }
  async function ok<T = Row>(path: string, body: unknown, as = token(), headers?: Record<string, string>): Promise<T> {
    const answer = await post(path, body, as, headers);
    expect(answer, `${path} ${JSON.stringify(body)}`).toMatchObject({ status: 200 });
    return answer.data as T;
  }
  async function records(path: string, query: Row = {}, as = token()): Promise<Row[]> {
    const answer = await get(`${path}/findPage`, { pageSize: 100, ...query }, as);
    expect(answer, path).toMatchObject({ status: 200 });
    return (answer.data as { records: Row[] }).records;
  }
  const client = {
    uid,
    post,
    get,
    ok,
    records,
    warehouse: async (as = token()) => (await ok<{ id: number }>("warehouse/create", { warehouseName: `仓库${uid()}` }, as)).id,
    goods: async (body: Row = {}, as = token()) => (await ok<{ id: number }>("goods/create", { goodsCode: `G${uid()}`, goodsName: `物资${uid()}`, ...body }, as)).id,
    /** A supplier that may deliver: its business and food operating licences in force, open-ended (decision 076). */
    supplier: async (as = token()) => {
      const id = (await ok<{ id: number }>("supplier/create", { supplierName: `供应商${uid()}` }, as)).id;
      for (const qualType of ["1", "2"]) await ok("supplierQualification/create", { supplierId: id, qualType, qualNo: `Q${uid()}`, validFrom: "2020-01-01" }, as);
      return id;
    },
    create: (doc: StockDoc, body: Row, as = token()) => ok<Row & { id: number; docNo: string; status: string }>(`${doc}/create`, body, as),
    step: (doc: StockDoc, action: "submit" | "approve" | "reject" | "receive" | "cancel", body: Row, as = token(), headers?: Record<string, string>) => post(`${doc}/${action}`, body, as, headers),
    info: async (doc: StockDoc, id: unknown, as = token()) => {
      const answer = await get(`${doc}/getInfo`, { id }, as);
      expect(answer, `${doc}/getInfo`).toMatchObject({ status: 200 });
      return answer.data as Row & { lines: Array<Row & { allocations?: Row[] }> };
    },
    /** Creates, submits and approves a document; answers its id (the approval's envelope must be 200). */
    async approved(doc: StockDoc, body: Row, as = token()): Promise<number> {
      const { id } = await client.create(doc, body, as);
      expect(await client.step(doc, "submit", { id }, as)).toMatchObject({ status: 200 });
      const answer = await client.step(doc, "approve", { id }, as);
      expect(answer, JSON.stringify(answer)).toMatchObject({ status: 200 });
      return id;
    },
    /** Creates and submits; answers the approval's envelope. */
    async approve(doc: StockDoc, body: Row, as = token()): Promise<{ id: number; answer: Envelope }> {
      const { id } = await client.create(doc, body, as);
      expect(await client.step(doc, "submit", { id }, as)).toMatchObject({ status: 200 });
      return { id, answer: await client.step(doc, "approve", { id }, as) };
    },
    stock: async (warehouseId: number, goodsId: number, as = token()) => {
      const [row] = await records("warehouseReal", { warehouseId, goodsId }, as);
      return { quantity: Number(row?.quantity ?? 0), amount: Number(row?.amount ?? 0) };
    },
    batches: (warehouseId: number, goodsId: number, as = token()) => records("warehouseRealDetail", { warehouseId, goodsId }, as),
    movements: (warehouseId: number, goodsId: number, as = token()) => records("warehouseLedger", { warehouseId, goodsId }, as),
  };
  return client;
}

export type StockClient = ReturnType<typeof stockClient>;
