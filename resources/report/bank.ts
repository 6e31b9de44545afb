import type { ReportScreen } from "../modules";

/**
 * 银行对账 (issue 15, decision 034): the bank's statement (XLSX or CSV: date, reference, amount) compared with our
 * online payments and top-ups of a period, by reference and amount. Not a declared report — it takes a file — so
 * it has its own page and endpoints, and this screen declaration for its menu entry and permissions. Shared by the
 * server and the page, so it holds no query.
 */
export const bankReconcile: ReportScreen = {
  module: "report",
  entity: "bankReconcile",
  screen: "bankreconcile",
  screenBase: "/report",
  title: "银行对账",
  buttons: { compare: "上传对账", export: "导出" },
};

export const BANK_PATH = "/report/bankreconcile/index";
export const BANK_PRINT_PATH = "/report/bankreconcile/print";
export const BANK_API = "/api/v1/report/bankReconcile";

/** The statement's size and rows: a month of a canteen's online payments is a few thousand rows. */
export const BANK_MAX_BYTES = 5 * 1024 * 1024;
export const BANK_MAX_ROWS = 20_000;
/** Bad rows listed one by one in the answer (all of them are counted). */
export const BANK_LISTED_PROBLEMS = 200;

/** `userAccountFlag` values that are paid online, so that the money passes through the bank. */
export const ONLINE_PAY_FLAGS = [100, 101];

export const bankMessages = {
  missing: "请选择银行对账单文件（.xlsx 或 .csv）",
  tooLarge: `对账单文件不能超过 ${BANK_MAX_BYTES / 1024 / 1024}M，请按日期分开上传`,
  tooManyRows: `对账单最多 ${BANK_MAX_ROWS} 行，请按日期分开上传`,
  xls: "不支持旧版 .xls 文件，请在 Excel 中另存为 .xlsx 或 .csv 后上传",
  notTable: "文件不是 .xlsx 或 .csv 格式的对账单，请上传银行导出的 Excel 或 CSV 文件",
  encoding: "CSV 文件的编码无法识别，请另存为 UTF-8 或 GBK 编码",
  unreadable: "文件无法读取，请确认是银行导出的 .xlsx 文件",
  formula: (row: number) => `第 ${row} 行含有公式，请将公式粘贴为数值后再上传`,
  noHeader: "文件中没有找到列名行（需要 日期、参考号、金额 三列）",
  missingColumns: (labels: string[]) => `对账单缺少列：${labels.join("、")}（第 1 行应为列名：日期、参考号、金额）`,
  empty: "对账单中没有数据行",
  quote: (row: number) => `第 ${row} 行的引号没有闭合`,
  badRows: (count: number, listed: string) => `对账单有 ${count} 行数据有误，未进行对账：${listed}`,
  date: (text: string) => `日期「${text}」不是有效的日期（如 2026-01-31）`,
  dateMissing: "日期为空",
  referenceMissing: "参考号为空",
  referenceTooLong: "参考号不能超过 64 个字符",
  referenceNumber: "参考号被 Excel 存成了数字，末尾几位已丢失；请将该列设为文本后重新导出",
  amountMissing: "金额为空",
  amount: (text: string) => `金额「${text}」不是有效的金额`,
  amountDecimals: (text: string) => `金额「${text}」超过两位小数`,
  amountZero: "金额不能为 0",
  amountRange: "金额超出范围（绝对值不能超过 1 亿元）",
};

/** Header texts a bank's export uses for each column (compared without spaces, case-insensitive). */
export const BANK_COLUMNS = {
  date: { label: "日期", names: ["日期", "交易日期", "记账日期", "入账日期", "交易时间", "date", "transactiondate"] },
  reference: { label: "参考号", names: ["参考号", "交易参考号", "商户订单号", "订单号", "流水号", "交易流水号", "交易单号", "业务单号", "reference", "ref", "referenceno"] },
  amount: { label: "金额", names: ["金额", "交易金额", "发生额", "入账金额", "amount"] },
} as const;

export type BankSource = "order" | "topUp" | "refund";
export const bankSourceLabels: Record<BankSource, string> = { order: "线上支付订单", topUp: "充值", refund: "充值退款" };

/** One line of the statement, as read. */
export interface BankLine {
  row: number;
  date: string;
  reference: string;
  amount: number;
}

/** One record of ours. */
export interface OurLine {
  source: BankSource;
  reference: string;
  /** China time, YYYY-MM-DD HH:mm. */
  at: string;
  amount: number;
  userName: string;
  payFlag: number;
  note: string;
}

export interface BankPair {
  bank: BankLine;
  ours: OurLine;
}

/** Lines and fen on each side: a matched pair counts once on each. */
export interface GroupTotals {
  bankCount: number;
  bank: number;
  oursCount: number;
  ours: number;
}

export interface BankAnswer {
  from: string;
  to: string;
  /** Whether the period came from the statement's own dates (none was given). */
  periodFromFile: boolean;
  matched: BankPair[];
  /** Same reference, different amount: shown, never counted as matched. */
  mismatched: BankPair[];
  bankOnly: Array<BankLine & { note: string }>;
  oursOnly: OurLine[];
  totals: {
    matched: GroupTotals;
    mismatched: GroupTotals;
    bankOnly: GroupTotals;
    oursOnly: GroupTotals;
    /** Every line of the statement and every record of ours in the period. */
    all: GroupTotals;
  };
  /** The statement as read, as CSV: the export and print forms post it back, so they need no second upload. */
  statement: string;
  summary: string;
  generatedText: string;
}
