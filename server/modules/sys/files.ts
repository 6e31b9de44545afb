import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { acceptedUploads, UPLOAD_REFERENCE, uploadKinds, uploadMessages, uploadReference, type UploadKind } from "../../../resources/uploads";
import { z } from "../../../resources/z";
import { recordId } from "../../../resources/schemas";
import { newId, type Db } from "../../db";
import { endpoint, type Endpoint, type SessionContext } from "../../http/endpoint";
import { readBody } from "../../http/body";
import { ApiError, fieldError, Status } from "../../http/envelope";

/** The picture's real type from its first bytes; the name and the browser's claim are not trusted. */
export function sniffImage(bytes: Uint8Array): "image/jpeg" | "image/png" | null {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length > 8 && png.every((b, i) => bytes[i] === b)) return "image/png";
  return null;
}

const latin1 = (bytes: Uint8Array, from: number, to: number) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1", from, to);

/**
 * A PDF by its content: the `%PDF-1.x` header, at least one `n g obj`, a cross-reference (`startxref`, or a `trailer`)
 * and `%%EOF` in the last kilobyte, so a page saved as .pdf, a renamed picture or a cut-off download is refused.
 */
export function sniffPdf(bytes: Uint8Array): "application/pdf" | null {
  if (!/^%PDF-\d\.\d/.test(latin1(bytes, 0, 8))) return null;
  const tail = latin1(bytes, Math.max(0, bytes.length - 1024), bytes.length);
  if (!tail.includes("%%EOF")) return null;
  const text = latin1(bytes, 0, bytes.length);
  if (!/\d+\s+\d+\s+obj\b/.test(text)) return null;
  return tail.includes("startxref") || text.includes("trailer") ? "application/pdf" : null;
}

/** What an upload of a kind really is, from its bytes (null: not what the kind takes); a plain file keeps its name's type. */
function contentTypeOf(kind: UploadKind, bytes: Uint8Array, fileName: string): string | null {
  if (kind === "image") return sniffImage(bytes);
  if (kind === "pdf") return sniffPdf(bytes);
  return fileTypes[fileName.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
}

/** An image or file field's value names an upload of this tenant, of a kind the field accepts (pictures, by default). */
export async function assertUploaded(
  db: Db,
  tenantId: number,
  field: { name: string; label: string; type: string; uploads?: readonly UploadKind[] },
  value: unknown,
) {
  if (value === undefined || value === null || value === "") return;
  const id = typeof value === "string" ? UPLOAD_REFERENCE.exec(value)?.[1] : undefined;
  const row = id
    ? await db.selectFrom("upload").select("kind").where("tenant_id", "=", tenantId).where("id", "=", Number(id)).executeTakeFirst()
    : undefined;
  if (!row) throw fieldError(field.name, uploadMessages.reference(field.label));
  const kinds = acceptedUploads(field);
  if (field.type === "image" && !kinds.includes(row.kind)) {
    throw fieldError(field.name, field.uploads ? uploadMessages.kinds(field.label, kinds) : uploadMessages.reference(field.label));
  }
}

const fileTypes: Record<string, string> = { apk: "application/vnd.android.package-archive" };

function storedPath(ctx: SessionContext, tenantId: number, id: number) {
  return join(ctx.services.config.UPLOAD_DIR, String(tenantId), String(id));
}

const upload = endpoint({
  method: "POST",
  path: "/api/v1/sys/file/upload",
  summary: "上传图片（JPEG/PNG，小于 2M）、PDF（kind=pdf，不超过 10M，按内容识别）或文件（kind=file，小于 100M），multipart 字段 file",
  access: { kind: "session" },
  rawBody: true,
  query: z.object({ kind: z.enum(["image", "pdf", "file"]).default("image") }),
  handle: async (ctx, { query }) => {
    const sctx = ctx as SessionContext;
    const rule = uploadKinds[query.kind];
    // The form's own lines add a little to the file; a body past that is refused as soon as it is seen to be.
    const body = await readBody(ctx.request, rule.maxBytes + 64 * 1024).catch((error: unknown) => {
      throw error instanceof ApiError && error.status === Status.PAYLOAD_TOO_LARGE ? new ApiError(Status.BAD_REQUEST, rule.sizeMessage) : error;
    });
    const type = ctx.request.headers.get("Content-Type") ?? "";
    const form = await new Response(body, { headers: { "Content-Type": type } }).formData().catch(() => null);
    const file = form?.get("file");
    if (!file || typeof file === "string") throw new ApiError(Status.BAD_REQUEST, uploadMessages.missing);
    if (rule.tooBig(file.size)) throw new ApiError(Status.BAD_REQUEST, rule.sizeMessage);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const contentType = contentTypeOf(query.kind, bytes, file.name);
    if (!contentType) throw new ApiError(Status.BAD_REQUEST, query.kind === "pdf" ? uploadMessages.pdfType : uploadMessages.imageType);
    const id = newId();
    const tenantId = sctx.session.tenantId;
    const path = storedPath(sctx, tenantId, id);
    await mkdir(join(ctx.services.config.UPLOAD_DIR, String(tenantId)), { recursive: true });
    await writeFile(`${path}.part`, bytes);
    await rename(`${path}.part`, path);
    // Control characters (NUL above all, which PostgreSQL cannot store) and path or quote marks become "_".
    // eslint-disable-next-line no-control-regex
    const fileName = file.name.replace(/[\\/"\u0000-\u001f\u007f]/g, "_").slice(0, 200) || "file";
    await ctx.services.db
      .insertInto("upload")
      .values({
        tenant_id: tenantId,
        id,
        kind: query.kind,
        content_type: contentType,
        size: bytes.length,
        file_name: fileName,
        sha256: createHash("sha256").update(bytes).digest("hex"),
        created_at: ctx.now,
        created_by: sctx.session.userId,
      })
      .execute();
    return { id, url: uploadReference(id), fileName, size: bytes.length, contentType };
  },
});

const view = endpoint({
  method: "GET",
  path: "/api/v1/sys/file/view",
  summary: "读取已上传的图片、PDF 或文件（以其自身类型返回，PDF 在浏览器中打开，文件一律作为下载）",
  access: { kind: "session", beforePasswordChange: true },
  query: z.object({ id: recordId() }),
  handle: async (ctx, { query }) => {
    const sctx = ctx as SessionContext;
    const row = await ctx.services.db
      .selectFrom("upload")
      .selectAll()
      .where("tenant_id", "=", sctx.session.tenantId)
      .where("id", "=", query.id)
      .executeTakeFirst();
    if (!row) throw new ApiError(Status.NOT_FOUND, "文件不存在");
    const body = await readFile(storedPath(sctx, row.tenant_id, row.id));
    const headers = new Headers({
      "Content-Type": row.content_type,
      "Content-Length": String(body.length),
      // A signed-in user's file: kept out of shared caches and off the disk of a shared terminal.
      "Cache-Control": "no-store",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "X-Content-Type-Options": "nosniff",
    });
    if (row.kind !== "image") {
      const disposition = row.kind === "pdf" ? "inline" : "attachment";
      headers.set("Content-Disposition", `${disposition}; filename*=UTF-8''${encodeURIComponent(row.file_name)}`);
    }
    // A browser's PDF viewer is a plugin, which a sandboxed page may not run; a PDF's own scripts stay in the viewer.
    if (row.kind === "pdf") headers.set("Content-Security-Policy", "default-src 'none'; object-src 'self'");
    return new Response(body, { headers });
  },
});

export const fileEndpoints: Endpoint[] = [upload, view];
