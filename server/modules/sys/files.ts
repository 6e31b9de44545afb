import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { FILE_MAX_BYTES, IMAGE_MAX_BYTES, UPLOAD_REFERENCE, uploadMessages, uploadReference } from "../../../resources/uploads";
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

/** An image or file field's value names an upload of this tenant (a picture, for an image field). */
export async function assertUploaded(db: Db, tenantId: number, field: { name: string; label: string; type: string }, value: unknown) {
  if (value === undefined || value === null || value === "") return;
  const id = typeof value === "string" ? UPLOAD_REFERENCE.exec(value)?.[1] : undefined;
  const row = id
    ? await db.selectFrom("upload").select("kind").where("tenant_id", "=", tenantId).where("id", "=", Number(id)).executeTakeFirst()
    : undefined;
  if (!row || (field.type === "image" && row.kind !== "image")) throw fieldError(field.name, uploadMessages.reference(field.label));
}

const fileTypes: Record<string, string> = { apk: "application/vnd.android.package-archive" };

function storedPath(ctx: SessionContext, tenantId: number, id: number) {
  return join(ctx.services.config.UPLOAD_DIR, String(tenantId), String(id));
}

const upload = endpoint({
  method: "POST",
  path: "/api/v1/sys/file/upload",
  summary: "上传图片（JPEG/PNG，小于 2M）或文件（kind=file，小于 100M），multipart 字段 file",
  access: { kind: "session" },
  rawBody: true,
  query: z.object({ kind: z.enum(["image", "file"]).default("image") }),
  handle: async (ctx, { query }) => {
    const sctx = ctx as SessionContext;
    const limit = query.kind === "image" ? IMAGE_MAX_BYTES : FILE_MAX_BYTES;
    const tooBig = query.kind === "image" ? uploadMessages.imageSize : uploadMessages.fileSize;
    // The form's own lines add a little to the file; a body past that is refused as soon as it is seen to be.
    const body = await readBody(ctx.request, limit + 64 * 1024).catch((error: unknown) => {
      throw error instanceof ApiError && error.status === Status.PAYLOAD_TOO_LARGE ? new ApiError(Status.BAD_REQUEST, tooBig) : error;
    });
    const type = ctx.request.headers.get("Content-Type") ?? "";
    const form = await new Response(body, { headers: { "Content-Type": type } }).formData().catch(() => null);
    const file = form?.get("file");
    if (!file || typeof file === "string") throw new ApiError(Status.BAD_REQUEST, uploadMessages.missing);
    if (file.size >= limit) throw new ApiError(Status.BAD_REQUEST, tooBig);
    const bytes = new Uint8Array(await file.arrayBuffer());
    let contentType = "application/octet-stream";
    if (query.kind === "image") {
      const sniffed = sniffImage(bytes);
      if (!sniffed) throw new ApiError(Status.BAD_REQUEST, uploadMessages.imageType);
      contentType = sniffed;
    } else {
      contentType = fileTypes[file.name.split(".").pop()?.toLowerCase() ?? ""] ?? contentType;
    }
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
  summary: "读取已上传的图片或文件（以其自身类型返回，文件一律作为下载）",
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
    if (row.kind === "file") {
      headers.set("Content-Disposition", `attachment; filename*=UTF-8''${encodeURIComponent(row.file_name)}`);
    }
    return new Response(body, { headers });
  },
});

export const fileEndpoints: Endpoint[] = [upload, view];
