import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminToken, createTestApp, expectField, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";
import { uploadedReference } from "../helpers/fixtures";
import { createTenantWithAdmin, type TenantFixture } from "../helpers/tenants";

/** A licence scan as a PDF (issue 35): recognised by its content, up to 10 MB, opened in the browser by its own tenant only. */
const encode = (text: string) => new TextEncoder().encode(text);
const PDF_TEXT =
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" +
  "xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000058 00000 n \ntrailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n107\n%%EOF\n";
const PDF = encode(PDF_TEXT);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]);
const PDF_TYPE = "只能上传完整的 PDF 文件（文件内容不是 PDF 或已损坏）";

/** A valid PDF of exactly `size` bytes: a comment pads it before the cross-reference. */
function pdfOfSize(size: number) {
  const cut = PDF_TEXT.indexOf("xref");
  const padding = size - PDF.length;
  const bytes = new Uint8Array(size);
  bytes.set(PDF.subarray(0, cut));
  bytes.set(encode("%"), cut);
  bytes.fill(0x20, cut + 1, cut + padding - 1);
  bytes.set(encode("\n"), cut + padding - 1);
  bytes.set(PDF.subarray(cut), cut + padding);
  return bytes;
}

for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;
    let tenant: TenantFixture;
    let other: TenantFixture;
    let uploads: string;
    beforeAll(async () => {
      uploads = mkdtempSync(join(tmpdir(), "canteen-uploads-"));
      app = await createTestApp(dialect, { UPLOAD_DIR: uploads });
      const superToken = await adminToken(app);
      tenant = await createTenantWithAdmin(app, superToken, "pdfa");
      other = await createTenantWithAdmin(app, superToken, "pdfb");
    });
    afterAll(async () => {
      await app.close();
      rmSync(uploads, { recursive: true, force: true });
    });

    async function upload(bytes: Uint8Array, name: string, type: string, kind: string, token = tenant.token) {
      const body = new FormData();
      body.append("file", new Blob([bytes as BlobPart], { type }), name);
      const response = await app.api.handle(
        new Request(`${ORIGIN}/api/v1/sys/file/upload?kind=${kind}`, { method: "POST", body, headers: { Authorization: `Bearer ${token}` } }),
        "127.0.0.1",
      );
      return (await response.json()) as { status: number; message: string; data: { id: number; url: string; contentType: string } };
    }
    const view = (url: string, token: string) => app.api.handle(new Request(`${ORIGIN}${url}`, { headers: { Authorization: `Bearer ${token}` } }), "127.0.0.1");

    async function newSupplier() {
      const result = await app.call<{ id: number }>("POST", "/api/v1/zhhq/supplier/create", { token: tenant.token, body: { supplierName: `持证供应商${Date.now()}${Math.random()}` } });
      return result.body.data.id;
    }
    const qualification = (body: Record<string, unknown>, path = "create") =>
      app.call<{ id: number }>("POST", `/api/v1/zhhq/supplierQualification/${path}`, { token: tenant.token, body });

    test("a PDF up to 10 MB is stored, opens in the browser as a PDF, and is a licence's scan on create and update", async () => {
      const result = await upload(PDF, "营业执照.pdf", "application/pdf", "pdf");
      expect(result.status).toBe(200);
      expect(result.data.contentType).toBe("application/pdf");
      const served = await view(result.data.url, tenant.token);
      expect(served.status).toBe(200);
      expect(served.headers.get("Content-Type")).toBe("application/pdf");
      expect(served.headers.get("Content-Disposition")).toMatch(/^inline;/);
      expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(PDF);
      expect((await upload(pdfOfSize(10 * 1024 * 1024), "big.pdf", "application/pdf", "pdf")).status).toBe(200);

      const supplierId = await newSupplier();
      const created = await qualification({ supplierId, qualType: "1", qualNo: "PDF-1", fileUrl: result.data.url });
      expect(created.body.status).toBe(200);
      const picture = await upload(JPEG, "licence.jpg", "image/jpeg", "image");
      const updated = await qualification({ id: created.body.data.id, supplierId, qualType: "1", qualNo: "PDF-1", fileUrl: picture.data.url }, "update");
      expect(updated.body.status).toBe(200);
      const back = await qualification({ id: created.body.data.id, supplierId, qualType: "1", qualNo: "PDF-1", fileUrl: result.data.url }, "update");
      expect(back.body.status).toBe(200);
      const info = await app.call<{ fileUrl: string }>("GET", `/api/v1/zhhq/supplierQualification/getInfo?id=${created.body.data.id}`, { token: tenant.token });
      expect(info.body.data.fileUrl).toBe(result.data.url);
    });

    test("a PDF is known by its content: renamed files, pages, cut-off, empty and over-size files are refused", async () => {
      const jpegAsPdf = await upload(JPEG, "licence.pdf", "application/pdf", "pdf");
      expect([jpegAsPdf.status, jpegAsPdf.message]).toEqual([400, PDF_TYPE]);
      const pdfAsJpeg = await upload(PDF, "licence.jpg", "image/jpeg", "image");
      expect([pdfAsJpeg.status, pdfAsJpeg.message]).toEqual([400, "只能支持上传 JPG 和 PNG 格式的图片"]);
      const page = await upload(encode("<html><script>alert(1)</script></html>%%EOF"), "licence.pdf", "application/pdf", "pdf");
      expect([page.status, page.message]).toEqual([400, PDF_TYPE]);
      const truncated = await upload(PDF.subarray(0, PDF.length - 40), "licence.pdf", "application/pdf", "pdf");
      expect([truncated.status, truncated.message]).toEqual([400, PDF_TYPE]);
      const headerOnly = await upload(encode("%PDF-1.7\n%%EOF\n"), "licence.pdf", "application/pdf", "pdf");
      expect([headerOnly.status, headerOnly.message]).toEqual([400, PDF_TYPE]);
      const empty = await upload(new Uint8Array(0), "licence.pdf", "application/pdf", "pdf");
      expect([empty.status, empty.message]).toEqual([400, PDF_TYPE]);
      const tooBig = await upload(pdfOfSize(10 * 1024 * 1024 + 1), "big.pdf", "application/pdf", "pdf");
      expect([tooBig.status, tooBig.message]).toEqual([400, "PDF 文件大小不能超过 10M"]);
      const huge = await upload(pdfOfSize(11 * 1024 * 1024), "huge.pdf", "application/pdf", "pdf");
      expect([huge.status, huge.message]).toEqual([400, "PDF 文件大小不能超过 10M"]);
      // Nothing refused was kept.
      const rows = await app.database.db.selectFrom("upload").select("id").where("tenant_id", "=", tenant.tenantId).where("file_name", "in", ["licence.pdf", "huge.pdf"]).execute();
      expect(rows).toEqual([]);
    });

    test("the scan field names itself when it is given an upload of a kind it does not take, and keeps what it had", async () => {
      const supplierId = await newSupplier();
      const stored = await upload(PDF, "scan.pdf", "application/pdf", "pdf");
      const created = await qualification({ supplierId, qualType: "2", qualNo: "KIND-1", fileUrl: stored.data.url });
      const plainFile = await uploadedReference(app, "file", tenant.tenantId);
      const message = "证书扫描件只能是 JPG/PNG 图片或 PDF 文件";
      expectField((await qualification({ supplierId, qualType: "2", qualNo: "KIND-2", fileUrl: plainFile })).body, "fileUrl", message);
      expectField((await qualification({ id: created.body.data.id, supplierId, qualType: "2", qualNo: "KIND-1", fileUrl: plainFile }, "update")).body, "fileUrl", message);
      const info = await app.call<{ fileUrl: string }>("GET", `/api/v1/zhhq/supplierQualification/getInfo?id=${created.body.data.id}`, { token: tenant.token });
      expect(info.body.data.fileUrl).toBe(stored.data.url);
      // Pictures-only fields still take no PDF.
      const avatar = await app.call("POST", "/api/v1/auth/user/updateProfile", { token: tenant.token, body: { avatar: stored.data.url } });
      expect(avatar.body.status).not.toBe(200);
    });

    test("another tenant can neither open a tenant's PDF nor name it as its own licence's scan", async () => {
      const stored = await upload(PDF, "mine.pdf", "application/pdf", "pdf");
      expect((await view(stored.data.url, other.token)).status).toBe(404);
      const supplier = await app.call<{ id: number }>("POST", "/api/v1/zhhq/supplier/create", { token: other.token, body: { supplierName: "他人供应商" } });
      const foreign = await app.call("POST", "/api/v1/zhhq/supplierQualification/create", {
        token: other.token,
        body: { supplierId: supplier.body.data.id, qualType: "1", qualNo: "X-1", fileUrl: stored.data.url },
      });
      expectField(foreign.body, "fileUrl", "证书扫描件只能是本站上传的文件");
    });
  });
}
