/** XLSX import of a declaration that offers `import` (decision 018): limits, messages and the report, for the API and the screen. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;

export const importMessages = {
  missing: "请选择要导入的文件",
  tooLarge: "导入文件不能超过 10M",
  notXlsx: "只能导入 .xlsx 格式的 Excel 文件，请使用下载的模板",
  unreadable: "文件无法读取，请使用下载的模板填写后再导入",
  noHeader: "文件第 1 行不是模板的列名，请使用下载的模板",
  empty: "文件中没有数据行",
  tooManyRows: `一次最多导入 ${IMPORT_MAX_ROWS} 行，请分批导入`,
  formula: (row: number) => `第 ${row} 行含有公式，请将公式粘贴为数值后再导入`,
  missingColumns: (labels: string[]) => `文件缺少必填列：${labels.join("、")}`,
  notInDict: (label: string, text: string, options: string[]) => `${label}「${text}」不是可选的值（可选：${options.join("、")}）`,
  relationMissing: (label: string, text: string) => `${label}「${text}」不存在`,
  ambiguous: (label: string, text: string) => `${label}「${text}」有多个同名的记录，请填写编码`,
  duplicateInFile: (label: string, row: number) => `${label}与第 ${row} 行重复`,
  duplicateInTable: (label: string, value: string) => `${label}「${value}」已存在`,
  refused: (count: number) => `有 ${count} 行数据有误，未导入任何数据`,
  done: (count: number) => `成功导入 ${count} 条`,
} as const;

/** One bad row: its number in the sheet (the header is row 1) and every reason. */
export interface ImportProblem {
  row: number;
  reasons: string[];
}

export interface ImportReport {
  dryRun: boolean;
  /** Data rows read (empty rows are skipped). */
  total: number;
  valid: number;
  invalid: number;
  imported: number;
  errors: ImportProblem[];
  /** More bad rows than the report lists. */
  errorsCapped: boolean;
}
