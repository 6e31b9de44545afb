import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { columnOf, type ResourceDef } from "../../resources/define";
import { documents, resources as entities, zhctResources } from "../../resources/index";
import { declaredTable } from "../../server/db/declared";
import { readTable, type ReadTable, type TableSpec } from "../../server/db/tables";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/db";

/**
 * Decision 014: a declaration and the table the migrations build say the same thing, for every table a migration
 * written by `npm run migration:new` creates (its exported `created`). Tables written before the
 * declarations drove migrations (0001–0008) keep extra columns of their own; for them every declared field must
 * still be a column of the declared type.
 */
/** Every declared table: the entities', and each document's header and lines (decision 060). */
const resources: ResourceDef[] = [...entities, ...documents.flatMap((d) => [d.header, d.lines])];
const migrations = import.meta.glob<{ created?: TableSpec[] }>("../../server/db/migrations/*.ts", { eager: true });
const declaredByMigration = new Set(Object.values(migrations).flatMap((m) => (m.created ?? []).map((t) => t.name)));

const sorted = (keys: string[][]) => keys.map((k) => k.join("+")).sort();
const fkText = (fks: TableSpec["foreignKeys"]) => fks.map((f) => `${f.columns.join("+")}→${f.table}(${f.to.join("+")})${f.onDelete ? " cascade" : ""}`).sort();

/** The ways a migrated table differs from its declaration; empty when they agree. */
function differences(def: ResourceDef, actual: ReadTable | null, strict: boolean): string[] {
  const expected = declaredTable(def);
  if (!actual) return [`${def.table}: table missing`];
  const found: string[] = [];
  if (def.scope === "tenant" && actual.columns[0]?.name !== "tenant_id") found.push(`${def.table}: tenant_id is not the first column`);
  const describe = (c: { name: string; type: string; notNull: boolean }) => `${c.name} ${c.type}${c.notNull ? " not null" : ""}`;
  if (strict) {
    // Order aside (an added column comes last in the table, and tenant_id first is checked above).
    const want = expected.columns.map(describe).sort();
    const have = actual.columns.map(describe).sort();
    if (want.join() !== have.join()) found.push(`${def.table}: columns ${JSON.stringify(have)} ≠ declared ${JSON.stringify(want)}`);
    if (sorted(expected.unique).join() !== sorted(actual.unique).join())
      found.push(`${def.table}: unique keys ${sorted(actual.unique)} ≠ declared ${sorted(expected.unique)}`);
    if (fkText(expected.foreignKeys).join() !== fkText(actual.foreignKeys).join())
      found.push(`${def.table}: foreign keys ${fkText(actual.foreignKeys)} ≠ declared ${fkText(expected.foreignKeys)}`);
  } else {
    const fields = new Set(def.fields.map(columnOf));
    for (const column of expected.columns.filter((c) => fields.has(c.name))) {
      const have = actual.columns.find((c) => c.name === column.name);
      if (!have) found.push(`${def.table}.${column.name}: declared, not in the table`);
      // Their nullability predates the rule (server-set columns are not null with defaults), so only the type is held.
      else if (have.type !== column.type) found.push(`${def.table}.${column.name}: ${have.type}, declared ${column.type}`);
    }
  }
  return found;
}

for (const dialect of dialects) {
  describe(`${dialect}: declarations and migrated tables`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
    });
    afterAll(() => database.destroy());

    test("every table written from a declaration matches it: columns, types, nullability, unique and foreign keys, tenant_id first", async () => {
      const found: string[] = [];
      for (const def of resources.filter((r) => declaredByMigration.has(r.table))) {
        found.push(...differences(def, await readTable(database.db, dialect, def.table), true));
      }
      expect(found).toEqual([]);
      // Every table such a migration created still has its declaration, and the canteen's are among them.
      expect([...declaredByMigration].filter((table) => !resources.some((r) => r.table === table))).toEqual([]);
      for (const def of zhctResources) expect(declaredByMigration).toContain(def.table);
    });

    test("every declared field of an older table is one of its columns", async () => {
      const found: string[] = [];
      for (const def of resources.filter((r) => !declaredByMigration.has(r.table))) {
        found.push(...differences(def, await readTable(database.db, dialect, def.table), false));
      }
      expect(found).toEqual([]);
    });

    test("a declaration that drifts from its table is caught", async () => {
      const food = zhctResources.find((r) => r.table === "food") as ResourceDef;
      const actual = await readTable(database.db, dialect, "food");
      const drifted: ResourceDef[] = [
        { ...food, fields: [...food.fields, { name: "calories", label: "热量", type: "number" }] },
        { ...food, fields: food.fields.map((f) => (f.name === "unit" ? { ...f, required: true } : f)) },
        { ...food, fields: food.fields.map((f) => (f.name === "price" ? { ...f, type: "text" as const } : f)) },
        { ...food, fields: food.fields.map((f) => (f.name === "foodName" ? { ...f, unique: true } : f)) },
        { ...food, fields: food.fields.map((f) => (f.name === "foodTypeId" ? { ...f, relation: "zhct/bowls" } : f)) },
      ];
      for (const def of drifted) expect(differences(def, actual, true), JSON.stringify(def.fields.at(-1))).not.toEqual([]);
      expect(differences(food, { ...(actual as ReadTable), columns: [...(actual as ReadTable).columns].reverse() }, true).join()).toMatch(/tenant_id is not the first/);
    });
  });
}
