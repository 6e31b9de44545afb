// PREVIEW ONLY — never committed.
import type { Kysely } from "kysely";
import { previewDoc } from "../../../resources/zz-preview";
import { declaredTable } from "../declared";
import { createTable } from "../tables";
import type { ResourceDef } from "../../../resources/define";
import { findResource } from "../../../resources/index";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const find = (key: string): ResourceDef | undefined => (key === previewDoc.docType ? previewDoc.header : findResource(key));
  await createTable(db, declaredTable(previewDoc.header, find));
  await createTable(db, declaredTable(previewDoc.lines, find));
}
