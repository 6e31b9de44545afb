// Written by `npm run migration:new -- zhct/payLimitConfig zhct/onlinePayRule zhct/merchantDivide zhct/integralStrategy` from the declarations (decision 014). Released migrations are not edited.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [
  {
    name: "pay_limit_config",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "staff_type", type: "text", notNull: true },
      { name: "meal_type", type: "text", notNull: true },
      { name: "max_meals_per_day", type: "integer", notNull: false },
      { name: "max_amount_per_meal", type: "bigint", notNull: false },
      { name: "cash_allowed", type: "integer", notNull: true, default: 1 },
      { name: "subsidy_allowed", type: "integer", notNull: true, default: 1 },
      { name: "allow_credit", type: "integer", notNull: true, default: 0 },
      { name: "credit_limit", type: "bigint", notNull: true, default: 0 },
      { name: "status", type: "integer", notNull: true, default: 1 },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "staff_type", "meal_type"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
    ],
    indexes: [],
  },
  {
    name: "online_pay_rule",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "restaurant_id", type: "bigint", notNull: true },
      { name: "wechat_enabled", type: "integer", notNull: true, default: 1 },
      { name: "alipay_enabled", type: "integer", notNull: true, default: 0 },
      { name: "unionpay_enabled", type: "integer", notNull: true, default: 0 },
      { name: "min_amount", type: "bigint", notNull: true, default: 100 },
      { name: "max_amount", type: "bigint", notNull: true, default: 100000 },
      { name: "daily_limit", type: "bigint", notNull: true, default: 200000 },
      { name: "status", type: "integer", notNull: true, default: 1 },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "restaurant_id"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "restaurant_id"], table: "org", to: ["tenant_id", "id"] },
    ],
    indexes: [],
  },
  {
    name: "merchant_divide",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "restaurant_id", type: "bigint", notNull: true },
      { name: "stall_id", type: "bigint", notNull: false },
      { name: "merchant_id", type: "bigint", notNull: true },
      { name: "share_percent", type: "integer", notNull: true },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "restaurant_id", "merchant_id"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
      { columns: ["tenant_id", "restaurant_id"], table: "org", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "stall_id"], table: "org", to: ["tenant_id", "id"] },
      { columns: ["tenant_id", "merchant_id"], table: "merchant", to: ["tenant_id", "id"] },
    ],
    indexes: [["tenant_id", "stall_id"], ["tenant_id", "merchant_id"]],
  },
  {
    name: "integral_strategy",
    tenant: true,
    columns: [
      { name: "tenant_id", type: "bigint", notNull: true },
      { name: "id", type: "bigint", notNull: true },
      { name: "strategy_name", type: "text", notNull: true },
      { name: "points_per_yuan", type: "integer", notNull: true },
      { name: "expiry_months", type: "integer", notNull: true, default: 12 },
      { name: "status", type: "integer", notNull: true, default: 1 },
      { name: "remark", type: "text", notNull: false },
      { name: "created_at", type: "bigint", notNull: true },
      { name: "created_by", type: "bigint", notNull: false },
      { name: "updated_at", type: "bigint", notNull: true },
      { name: "updated_by", type: "bigint", notNull: false },
    ],
    unique: [["tenant_id", "strategy_name"]],
    foreignKeys: [
      { columns: ["tenant_id"], table: "tenant", to: ["id"] },
    ],
    indexes: [],
  },
];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of created) await createTable(db, table);
  for (const { table, columns } of added) await addColumns(db, table, columns);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, columns } of added) await dropColumns(db, table, columns);
  await dropTables(db, created);
}
