import type { Generated, Insertable, Selectable, Updateable } from "kysely";
import type { scResources, zhctResources, zhhqResources } from "../../resources/index";
import type { holiday } from "../../resources/sys/holiday";
import type { DeclaredRow, DeclaredTables } from "./declared";
import type { UploadKind } from "../../resources/uploads";

/** Columns every table keeps: epoch milliseconds and the acting user's id. */
interface Audit {
  created_at: number;
  created_by: number | null;
  updated_at: number;
  updated_by: number | null;
}

export interface TenantTable extends Audit {
  id: number;
  tenant_name: string;
  tenant_code: string;
  contact_name: string | null;
  contact_phone: string | null;
  address: string | null;
  expire_date: string | null;
  status: number;
  remark: string | null;
}

export interface SubsystemTable extends Audit {
  id: number;
  sys_code: string;
  sys_name: string;
  icon: string | null;
  sort: number;
  status: number;
  remark: string | null;
}

export interface MenuTable extends Audit {
  id: number;
  subsystem_id: number;
  parent_id: number | null;
  menu_name: string;
  menu_path: string | null;
  menu_icon: string | null;
  menu_type: string;
  menu_target: string;
  permission: string | null;
  /** Comma-separated role codes that may open the route; null means no restriction. */
  roles: string | null;
  sort: number;
  status: number;
  remark: string | null;
}

export interface DictTable extends Audit {
  id: number;
  dict_code: string;
  dict_name: string;
  status: number;
  remark: string | null;
}

export interface DictItemTable extends Audit {
  id: number;
  dict_code: string;
  item_value: string;
  item_text: string;
  item_type: number;
  sort: number;
  status: number;
  remark: string | null;
}

export interface OrgTable extends Audit {
  tenant_id: number;
  id: number;
  parent_id: number | null;
  org_name: string;
  org_code: string | null;
  org_type: string;
  sort: number;
  status: number;
  remark: string | null;
}

export interface RoleTable extends Audit {
  tenant_id: number;
  id: number;
  role_code: string;
  role_name: string;
  role_type: string;
  status: number;
  remark: string | null;
}

export interface UserTable extends Audit {
  tenant_id: number;
  id: number;
  user_name: string;
  password_hash: string;
  pwd_security_level: number;
  real_name: string | null;
  user_code: string | null;
  avatar: string | null;
  introduction: string | null;
  phone: string | null;
  email: string | null;
  sex: number | null;
  org_id: number | null;
  navigation_mode: string | null;
  /** JSON of the user's shell settings (tags view, fixed header, sidebar logo, theme). */
  settings: string | null;
  status: number;
  last_login_at: number | null;
  remark: string | null;
}

/** Sign-in names are global (the login form has no tenant field), so they live in their own table. */
export interface LoginNameTable {
  user_name: string;
  tenant_id: number;
  user_id: number;
}

export interface UserRoleTable {
  tenant_id: number;
  user_id: number;
  role_id: number;
}

export interface RoleMenuTable {
  tenant_id: number;
  role_id: number;
  menu_id: number;
}

export interface SessionTable {
  token_hash: string;
  tenant_id: number;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
  acting_tenant_id: number | null;
  ip: string | null;
  user_agent: string | null;
}

export interface LoginLogTable {
  id: number;
  tenant_id: number | null;
  user_name: string;
  ip: string | null;
  user_agent: string | null;
  result: "success" | "failure" | "locked" | "captcha" | "limited";
  message: string;
  created_at: number;
}

export interface LoginLockTable {
  user_name: string;
  locked_until: number;
}

export interface LoginRateHitTable {
  ip: string;
  at: number;
}

export interface InstanceLeaseTable {
  instance_no: number;
  holder: string;
  expires_at: number;
}

export interface CaptchaTable {
  check_key: string;
  code_hash: string;
  expires_at: number;
}

export interface OperationLogTable {
  tenant_id: number;
  id: number;
  user_id: number | null;
  user_name: string;
  module: string;
  entity: string;
  entity_id: number | null;
  action: string;
  /** JSON: { field: [before, after] } for updates, the values for creates and deletes. */
  changes: string | null;
  ip: string | null;
  created_at: number;
}

/** Meal-order complaints (spec §7); status per dict mealOrderComplaintsProcessStatus. */
export interface MealOrderComplaintsTable extends Audit {
  tenant_id: number;
  id: number;
  order_no: string;
  order_id: number | null;
  complainant_id: number | null;
  complainant_name: string | null;
  content: string;
  images: string | null;
  status: number;
  reply: string | null;
  handler_id: number | null;
  handler_name: string | null;
  handled_at: number | null;
  revoked_by: number | null;
  revoked_at: number | null;
  /** Fen refunded when processed as upheld (migration 0020). */
  refund_amount: number | null;
}

export interface ImageObjTable extends Audit {
  tenant_id: number;
  id: number;
  name: string;
  /** logo, banner, other */
  image_type: string;
  image: string;
  sort: number;
  status: number;
  remark: string | null;
}

export interface LoginTicketTable {
  ticket_hash: string;
  tenant_id: number;
  user_id: number;
  /** The session that asked for the ticket: the exchange fails once it has ended. */
  session_hash: string;
  /** The host the ticket was issued for (this site's, or an allowed partner's): only a request from it may exchange it. */
  audience: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface UploadTable {
  tenant_id: number;
  id: number;
  kind: UploadKind;
  content_type: string;
  size: number;
  file_name: string;
  sha256: string;
  created_at: number;
  created_by: number | null;
}

export interface UserWarehouseTable {
  tenant_id: number;
  user_id: number;
  warehouse_id: number;
}

/** The restaurants (orgs of type restaurant) a user works for. */
export interface UserRestaurantTable {
  tenant_id: number;
  user_id: number;
  org_id: number;
}

/** System management (0004_sys): devices, app versions, merchants, parameters, IC card initialisation. */
export interface DeviceTable extends Audit {
  tenant_id: number;
  id: number;
  device_code: string;
  device_name: string;
  device_type: string;
  org_id: number | null;
  ip: string | null;
  mac: string | null;
  alive_status: number;
  last_heartbeat_at: number | null;
  app_version: string | null;
  status: number;
  remark: string | null;
}

export interface DeviceParamTable extends Audit {
  tenant_id: number;
  device_id: number;
  param_key: string;
  param_value: string;
  remark: string | null;
  sort: number;
}

export interface AppVersionTable extends Audit {
  tenant_id: number;
  id: number;
  version_name: string;
  version_code: number;
  /** apk, bdu */
  file_type: string;
  file_url: string;
  file_size: number | null;
  md5: string | null;
  force_update: number;
  status: number;
  published_at: number | null;
  release_notes: string | null;
}

export interface ParameterConfigTable extends Audit {
  tenant_id: number;
  id: number;
  param_code: string;
  param_name: string;
  param_value: string | null;
  remark: string | null;
}

export interface MerchantTable extends Audit {
  tenant_id: number;
  id: number;
  merchant_code: string;
  merchant_name: string;
  contact_name: string | null;
  contact_phone: string | null;
  bank_name: string | null;
  account_name: string | null;
  settlement_account: string | null;
  status: number;
  remark: string | null;
}

export interface MerchantConfigTable extends Audit {
  tenant_id: number;
  id: number;
  merchant_id: number;
  parameter_code: string;
  param_value: string | null;
  remark: string | null;
}

export interface MerchantOrgTable extends Audit {
  tenant_id: number;
  id: number;
  merchant_id: number;
  org_id: number;
  remark: string | null;
}

export interface DeviceDetectConfigTable extends Audit {
  tenant_id: number;
  id: number;
  device_id: number;
  confidence_threshold: number;
  weight_tolerance: number | null;
  detect_interval: number | null;
  max_items: number | null;
  status: number;
  remark: string | null;
}

export interface IccardInitTable extends Audit {
  tenant_id: number;
  id: number;
  card_serial: string;
  key_version: number;
  sectors: string;
  /** 1 success, 0 failure */
  result: number;
  message: string | null;
  operator_name: string | null;
  initialized_at: number;
}

/** Tables written from declarations get their row types from them (decision 014); the rest are listed here. */
type Declared = DeclaredTables<typeof zhctResources> & DeclaredTables<typeof zhhqResources> & DeclaredTables<typeof scResources>;

export interface Database extends Declared {
  holiday: DeclaredRow<typeof holiday>;
  device: DeviceTable;
  device_param: DeviceParamTable;
  app_version: AppVersionTable;
  parameter_config: ParameterConfigTable;
  merchant: MerchantTable;
  merchant_config: MerchantConfigTable;
  merchant_org: MerchantOrgTable;
  device_detect_config: DeviceDetectConfigTable;
  iccard_init: IccardInitTable;
  user_warehouse: UserWarehouseTable;
  user_restaurant: UserRestaurantTable;
  upload: UploadTable;
  meal_order_complaints: MealOrderComplaintsTable;
  image_obj: ImageObjTable;
  login_ticket: LoginTicketTable;
  operation_log: OperationLogTable;
  tenant: TenantTable;
  subsystem: SubsystemTable;
  menu: MenuTable;
  dict: DictTable;
  dict_item: DictItemTable;
  org: OrgTable;
  role: RoleTable;
  user: UserTable;
  login_name: LoginNameTable;
  user_role: UserRoleTable;
  role_menu: RoleMenuTable;
  session: SessionTable;
  login_log: LoginLogTable;
  login_lock: LoginLockTable;
  login_rate_hit: LoginRateHitTable;
  instance_lease: InstanceLeaseTable;
  captcha: CaptchaTable;
  idempotency_key: IdempotencyKeyTable;
  job_lease: JobLeaseTable;
  food_sales_day: FoodSalesDayTable;
  diner_month_ledger: DinerMonthLedgerTable;
  diner_month_points: DinerMonthPointsTable;
  diner_month_order: DinerMonthOrderTable;
  diner_day_order: DinerDayOrderTable;
  diner_place_month: DinerPlaceMonthTable;
  order_day: OrderDayTable;
  swipe_day: SwipeDayTable;
  ledger_day: LedgerDayTable;
  points_order_day: PointsOrderDayTable;
  shell_generation: ShellGenerationTable;
  /** Projections a migration asked to have counted after the migrations (migrations/recounts.ts). */
  projection_recount: { name: string };
  document_status_history: DocumentStatusHistoryTable;
  document_sequence: DocumentSequenceTable;
}

/** The counter of what users' shells show (migration 0024, decision 019). */
export interface ShellGenerationTable {
  id: number;
  generation: number;
}

/** A diner's ledger lines of a China month per account and busiType, kept by `post` (migration 0033, decision 040). */
export interface DinerMonthLedgerTable {
  tenant_id: number;
  account_type: string;
  /** YYYY-MM, the China month of the lines' occurred_at. */
  month: string;
  user_info_id: number;
  busi_type: number;
  /** Signed fen: the lines' sum. */
  amount: number;
  lines: number;
}

/** A diner's points lines of a China month per change type, kept by `postPoints` (migration 0033, decision 040). */
export interface DinerMonthPointsTable {
  tenant_id: number;
  month: string;
  user_info_id: number;
  change_type: number;
  points: number;
  lines: number;
}

/**
 * What a diner's orders of one order date, or of one month of them, add up to (migrations 0033 and 0035, decisions
 * 040 and 041), kept by pay, cancel and refunds.
 */
export interface DinerOrderFigures {
  tenant_id: number;
  user_info_id: number;
  /** Orders placed, cancelled ones too. */
  placed: number;
  /** Orders that count: not cancelled nor refunded in full. */
  orders: number;
  /** Fen, as the orders' paid_amount, ticket (paid with a meal ticket), refunded_amount. */
  paid: number;
  ticket: number;
  refunded: number;
  /** Fen the payments took from the cash and the subsidy account (their 消费 lines, positive). */
  cash: number;
  subsidy: number;
  /** Fen given back to them by cancels and refunds (their 消费退回 lines). */
  cash_back: number;
  subsidy_back: number;
  /** The orders that count per meal type (none: amount-only sales and other types). */
  meals_breakfast: number;
  meals_lunch: number;
  meals_dinner: number;
  meals_midnight: number;
  meals_none: number;
  /** Counter and device sales that count (刷卡统计): a diner of a period had one when their sum is above 0. */
  swipes: number;
}

export interface DinerDayOrderTable extends DinerOrderFigures {
  order_date: string;
}

export interface DinerMonthOrderTable extends DinerOrderFigures {
  month: string;
  /** Order dates with an order that counts. */
  days: number;
}

/**
 * A diner's orders of a month per restaurant, stall and meal type (0 and '': none), kept by pay, cancel and refunds
 * (migration 0039, decision 047): a place's diners of a period are those whose meals there add up above 0.
 */
export interface DinerPlaceMonthTable {
  tenant_id: number;
  month: string;
  restaurant_id: number;
  stall_id: number;
  meal_type: string;
  user_info_id: number;
  /** Orders that count (not cancelled, not refunded in full). */
  meals: number;
  /** Fen, paid less refunded. */
  amount: number;
}

/** The orders per order day, restaurant, meal type and payment method, kept by pay, cancel and refunds (migration 0036). */
export interface OrderDayTable {
  tenant_id: number;
  order_date: string;
  /** 0: an order without a restaurant. */
  restaurant_id: number;
  /** '': an order without a meal type. */
  meal_type: string;
  pay_flag: number;
  /** Orders placed; of them, those cancelled or refunded in full. */
  placed: number;
  cancelled: number;
  /** Fen, as the orders' paid_amount and refunded_amount. */
  paid: number;
  refunded: number;
}

/**
 * The ledger's lines per China day (`day_no`: days since 1970-01-01) and shard of the diners (`shardOf`, one of 16), one
 * column per account and business type, in fen, and the lines per account; kept by `post` (migration 0038).
 */
/** A figure of a kept ledger day: an account's lines and amount of one business type (migration 0038). */
export type LedgerDayFigure = `${"cash" | "subsidy"}_${"lines" | "top_up" | "refund" | "consume" | "reversal" | "grant" | "clear" | "consume_return" | "dorm_fee"}`;
export type LedgerDayTable = { tenant_id: number; day_no: number; shard: number } & { [F in LedgerDayFigure]: Generated<number> };

/** Counter and device sales per order day, restaurant and meal type, kept by pay, cancel and refunds (migration 0037). */
export interface SwipeDayTable {
  tenant_id: number;
  order_date: string;
  /** 0: a sale without a restaurant. */
  restaurant_id: number;
  /** '': a sale without a meal type. */
  meal_type: string;
  /** Sales that count; of them, those paid by card. */
  swipes: number;
  card_swipes: number;
  /** Fen, paid less refunded. */
  amount: number;
  /** Diners with a sale there that counts. */
  diners: number;
}

/** The orders' points per order day and restaurant, kept by `postPoints` (migration 0034, decision 040 addendum). */
export interface PointsOrderDayTable {
  tenant_id: number;
  order_date: string;
  /** 0: an order without a restaurant. */
  restaurant_id: number;
  /** Orders that earned points, and what they paid (fen). */
  orders: number;
  paid: number;
  earned: number;
  /** Points taken back by refunds, positive. */
  taken_back: number;
}

/** A day's dishes sold per restaurant and meal type, kept by the orders (migration 0031, decision 038). */
export interface FoodSalesDayTable {
  tenant_id: number;
  order_date: string;
  /** 0: an order without a restaurant. */
  restaurant_id: number;
  /** '': an amount-only sale without a meal type. */
  meal_type: string;
  food_id: number;
  food_name: string;
  quantity: number;
  /** Fen: the items' subtotals. */
  amount: number;
}

/** Which instance runs a background job until when (migration 0019, decision 022). */
export interface JobLeaseTable {
  job: string;
  holder: string;
  expires_at: number;
}

/** A money-moving request's Idempotency-Key (migration 0014, decision 017). */
export interface IdempotencyKeyTable {
  tenant_id: number;
  idem_key: string;
  request_hash: string;
  /** The JSON of the first answer's data. */
  response: string;
  created_at: number;
}

/** Every document's moves from status to status (migration 0047, decision 060); `doc_type` is `module/entity`. */
export interface DocumentStatusHistoryTable {
  tenant_id: number;
  id: number;
  doc_type: string;
  doc_id: number;
  /** The transition (`submit`), or `create` for the document's first status. */
  action: string;
  from_status: string | null;
  to_status: string;
  reason: string | null;
  operator_id: number | null;
  operator_name: string | null;
  created_at: number;
}

/** The last number given per tenant, document type and China day (`RK20261128-0001`). */
export interface DocumentSequenceTable {
  tenant_id: number;
  doc_type: string;
  day: string;
  last_value: number;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type MenuRow = Selectable<MenuTable>;
export type SessionRow = Selectable<SessionTable>;
