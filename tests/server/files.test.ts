import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminToken, createTestApp, ORIGIN, type TestApp } from "../helpers/api";
import { dialects } from "../helpers/db";

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

for (const dialect of dialects) {
  describe(dialect, () => {
    let app: TestApp;
    let token: string;
    let uploads: string;
    beforeAll(async () => {
      uploads = mkdtempSync(join(tmpdir(), "canteen-uploads-"));
      app = await createTestApp(dialect, { UPLOAD_DIR: uploads });
      token = await adminToken(app);
    });
    afterAll(async () => {
      await app.close();
      rmSync(uploads, { recursive: true, force: true });
    });

    async function upload(bytes: Uint8Array, name: string, type: string, kind = "image") {
      const body = new FormData();
      body.append("file", new Blob([bytes as BlobPart], { type }), name);
      const response = await app.api.handle(
        new Request(`${ORIGIN}/api/v1/sys/file/upload?kind=${kind}`, { method: "POST", body, headers: { Authorization: `Bearer ${token}` } }),
        "127.0.0.1",
      );
      return (await response.json()) as { status: number; message: string; data: { id: number; url: string } };
    }

    test("a JPEG or PNG under 2 MB is stored outside the web root and served with its own type", async () => {
      for (const [bytes, type] of [[JPEG, "image/jpeg"], [PNG, "image/png"]] as const) {
        const result = await upload(bytes, "logo.bin", "application/octet-stream");
        expect(result.status).toBe(200);
        const view = await app.api.handle(new Request(`${ORIGIN}${result.data.url}`, { headers: { Authorization: `Bearer ${token}` } }), "127.0.0.1");
        expect(view.headers.get("Content-Type")).toBe(type);
        expect(view.headers.get("X-Content-Type-Options")).toBe("nosniff");
        expect(new Uint8Array(await view.arrayBuffer())).toEqual(bytes);
      }
      expect(readdirSync(join(uploads, "1")).length).toBe(2);
    });

    test("other pictures are refused with the spec's messages, whatever they claim to be", async () => {
      expect((await upload(SVG, "evil.png", "image/png")).message).toBe("只能支持上传 JPG 和 PNG 格式的图片");
      expect((await upload(new TextEncoder().encode("GIF89a...."), "a.gif", "image/gif")).message).toBe("只能支持上传 JPG 和 PNG 格式的图片");
      const big = new Uint8Array(2 * 1024 * 1024);
      big.set(JPEG);
      expect((await upload(big, "big.jpg", "image/jpeg")).message).toBe("图片大小不能超过 2M");
    });

    test("a file upload is served as a download, never as a page", async () => {
      const result = await upload(new TextEncoder().encode("<html><script>alert(1)</script></html>"), "app.html", "text/html", "file");
      expect(result.status).toBe(200);
      const view = await app.api.handle(new Request(`${ORIGIN}${result.data.url}`, { headers: { Authorization: `Bearer ${token}` } }), "127.0.0.1");
      expect(view.headers.get("Content-Type")).toBe("application/octet-stream");
      expect(view.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    });
  });
}
