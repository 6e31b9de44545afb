import type { Db } from "../../db";

/**
 * What a report's query is given and gives back: the engine (./engine.ts) calls the queries (./queries*.ts) with
 * these, and they know nothing else of it.
 */
export type Row = Record<string, string | number | null>;

/** The checked filters a query reads. Ids are the tenant's own (checked), days are China days. */
export interface Filters {
  from: string;
  to: string;
  /** Epoch ms of `from`'s start and the day after `to`. */
  start: number;
  end: number;
  restaurantId?: number;
  stallId?: number;
  deptId?: number;
  mealType?: string;
  payFlag?: string;
  /** A top-up channel's code (decision 064). */
  channel?: string;
  accountType?: string;
  userCode?: string;
  userInfoId?: number;
  /** A month range (reports with `monthRange`): `from`–`to` are then its first and last day. */
  fromMonth?: string;
  toMonth?: string;
  staffType?: string;
  ticketType?: string;
  /** 智慧后勤's reports (decision 076): rows of the tenant's warehouse master data, checked. */
  warehouseId?: number;
  supplierId?: number;
  goodsId?: number;
  goodsTypeId?: number;
  outUseTypeId?: number;
  /** 出库统计's 领用部门: a restaurant, stall or department. */
  receiverOrgId?: number;
  /** A text filter a report reads as typed (a batch number). */
  keyword?: string;
}

export interface QueryResult {
  rows: Row[];
  /** Totals computed by the query itself (when rows are limited); otherwise summed from the rows. */
  totals?: Row;
  truncated?: number;
  /** Rows were left out but not counted. */
  more?: boolean;
  /**
   * Rows folded by the chart's x over every row, for an answer cut at the row limit: the chart is drawn from these
   * instead of the rows answered (decision 090).
   */
  chartRows?: Row[];
}

export type ReportQuery = (db: Db, tenantId: number, filters: Filters) => Promise<QueryResult>;

/** The queries of a module's reports, by the report's entity (报表's own are ./queries.ts's). */
export type ReportQueries = Record<string, ReportQuery>;
