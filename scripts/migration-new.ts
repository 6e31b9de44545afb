/**
 * `npm run migration:new -- zhct/food [zhct/foodType …] [--name catalogue]` writes the next migration from the
 * declarations (decision 014): tables that do not exist yet are created, fields added to a released table become
 * added columns. It compares with what the migrations so far build (in a scratch SQLite database) and refuses what
 * it cannot write safely (a changed type, nullability or key), which needs a migration written by hand.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findResource } from "../resources/index";
import { migrateToLatest, openDatabase } from "../server/db";
import { declaredTable } from "../server/db/declared";
import { readTable, type ColumnSpec, type TableSpec } from "../server/db/tables";

const root = join(import.meta.dirname, "..");
const dir = join(root, "server/db/migrations");

const args = process.argv.slice(2).filter((a) => a !== "--");
const nameAt = args.indexOf("--name");
const name = nameAt >= 0 ? args.splice(nameAt, 2)[1] : undefined;
if (!args.length) {
  console.error("用法：npm run migration:new -- 模块/实体 [模块/实体 …] [--name 名称]");
  process.exit(1);
}

const specs = args.map((key) => {
  const def = findResource(key);
  if (!def) {
    console.error(`没有声明 ${key}（resources/index.ts）`);
    process.exit(1);
  }
  return declaredTable(def);
});

const handle = await openDatabase(":memory:");
await migrateToLatest(handle.db);
const created: TableSpec[] = [];
const added: Array<{ table: string; columns: ColumnSpec[] }> = [];
const refused: string[] = [];
for (const spec of specs) {
  const current = await readTable(handle.db, "sqlite", spec.name);
  if (!current) {
    created.push(spec);
    continue;
  }
  const columns: ColumnSpec[] = [];
  for (const column of spec.columns) {
    const existing = current.columns.find((c) => c.name === column.name);
    if (!existing) {
      if (column.notNull && column.default === undefined) refused.push(`${spec.name}.${column.name}：已有数据的表新增必填字段需要默认值（defaultValue）`);
      else columns.push(column);
    } else if (existing.type !== column.type || existing.notNull !== column.notNull) {
      refused.push(`${spec.name}.${column.name}：类型或可空性改变，请手写迁移`);
    }
  }
  const missingKeys = spec.unique.filter((key) => !current.unique.some((u) => u.join() === key.join()));
  if (missingKeys.length) refused.push(`${spec.name}：唯一键 ${missingKeys.map((k) => k.join("+")).join("、")} 需要手写迁移`);
  if (columns.some((c) => spec.foreignKeys.some((fk) => fk.columns.includes(c.name)))) refused.push(`${spec.name}：新增的关联字段需要手写迁移（外键）`);
  if (columns.length) added.push({ table: spec.name, columns });
}
await handle.close();
if (refused.length) {
  console.error(refused.join("\n"));
  process.exit(1);
}
if (!created.length && !added.length) {
  console.log("声明与迁移一致，无需新迁移。");
  process.exit(0);
}

// A table comes after the tables it references.
const ordered: TableSpec[] = [];
const pending = [...created];
while (pending.length) {
  const next = pending.findIndex((t) => t.foreignKeys.every((fk) => fk.table === t.name || !pending.some((p) => p !== t && p.name === fk.table)));
  if (next < 0) throw new Error(`循环引用：${pending.map((t) => t.name).join("、")}`);
  ordered.push(...pending.splice(next, 1));
}

const numbers = readdirSync(dir).map((f) => Number(f.slice(0, 4))).filter(Number.isFinite);
const number = String(Math.max(0, ...numbers) + 1).padStart(4, "0");
const slug = (name ?? args[0].split("/")[1]).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/[^a-z0-9_]/g, "_");
const file = `${number}_${slug}`;
/** One line per column, key or reference, as a migration written by hand would read. */
const inline = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(inline).join(", ")}]`
    : value && typeof value === "object"
      ? `{ ${Object.entries(value).map(([k, v]) => `${k}: ${inline(v)}`).join(", ")} }`
      : JSON.stringify(value);
const lines = (items: unknown[], indent: string) => (items.length ? `[\n${items.map((i) => `${indent}  ${inline(i)},\n`).join("")}${indent}]` : "[]");
const tableLiteral = (t: TableSpec) =>
  `  {\n    name: ${inline(t.name)},\n    tenant: ${t.tenant},\n    columns: ${lines(t.columns, "    ")},\n    unique: ${inline(t.unique)},\n    foreignKeys: ${lines(t.foreignKeys, "    ")},\n    indexes: ${inline(t.indexes)},\n  },\n`;
const addedLiteral = (a: { table: string; columns: ColumnSpec[] }) => `  { table: ${inline(a.table)}, columns: ${lines(a.columns, "  ")} },\n`;
writeFileSync(
  join(dir, `${file}.ts`),
  `// Written by \`npm run migration:new -- ${args.join(" ")}\` from the declarations (decision 014). Released migrations are not edited.
import type { Kysely } from "kysely";
import { addColumns, createTable, dropColumns, dropTables, type ColumnSpec, type TableSpec } from "../tables";

export const created: TableSpec[] = [${ordered.length ? `\n${ordered.map(tableLiteral).join("")}` : ""}];

export const added: Array<{ table: string; columns: ColumnSpec[] }> = [${added.length ? `\n${added.map(addedLiteral).join("")}` : ""}];

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
`,
);

// Registered with the others, so that the next start migrates it.
const indexPath = join(root, "server/db/index.ts");
const binding = `migration${number}`;
let index = readFileSync(indexPath, "utf8");
index = index.replace(/(import \* as \w+ from "\.\/migrations\/[^"]+";\n)(?!import \* as \w+ from "\.\/migrations)/, `$1import * as ${binding} from "./migrations/${file}";\n`);
index = index.replace(/(const migrations: Record<string, Migration> = \{\n(?: {2}.+\n)*)\};/, `$1  "${file}": ${binding},\n};`);
writeFileSync(indexPath, index);
console.log(`已写入 server/db/migrations/${file}.ts（${ordered.map((t) => t.name).concat(added.map((a) => `${a.table} 新增字段`)).join("、")}）`);
