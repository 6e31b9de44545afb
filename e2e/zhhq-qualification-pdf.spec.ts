import { expect, test } from "@playwright/test";
import { apiAs } from "./support/api";
import { signInFresh } from "./support/auth";
import { e2eUsers } from "./support/servers";
import { expectNoReactErrors, pick, untilHydrated } from "./support/shell";

/*
 * Issue 35 in Chromium (decision 086): a keeper uploads a supplier's licence as a PDF on 供应商资质's form, sees it
 * listed, and on its edit form a link (not a picture) that opens it: the browser is answered with the PDF itself, inline.
 */

const keeper = e2eUsers.hqKeeper;
const tag = Date.now().toString(36).slice(-5).toUpperCase();
const SUPPLIER = `PDF供应商${tag}`;
const PDF =
  "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" +
  "xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000058 00000 n \ntrailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n107\n%%EOF\n";

test("a licence scan uploaded as a PDF is listed, and its form links to the PDF, which opens inline", async ({ page, request }) => {
  const api = await apiAs(request, keeper.userName, keeper.password);
  await api.ok("/api/v1/zhhq/supplier/create", { supplierName: SUPPLIER });

  await signInFresh(page, keeper.userName, keeper.password, "/zhhq/supplierqualification/create");
  await untilHydrated(page);
  await pick(page, "供应商", SUPPLIER);
  await page.getByLabel("资质类型").selectOption({ label: "营业执照" });
  await page.getByLabel("证书编号").fill(`PDF-${tag}`);
  await page.locator("input[type=file]").setInputFiles({ name: "营业执照.pdf", mimeType: "application/pdf", buffer: Buffer.from(PDF) });
  await expect(page.getByRole("link", { name: "查看已上传的文件" })).toBeVisible();
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/zhhq\/supplierqualification\/index/);

  const row = page.getByRole("row").filter({ hasText: `PDF-${tag}` });
  await expect(row).toContainText(SUPPLIER);
  await row.getByRole("link", { name: "编辑" }).click();
  const link = page.getByRole("link", { name: "查看已上传的文件" });
  await expect(link).toBeVisible();
  await expect(page.getByRole("img", { name: "证书扫描件" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/zhhq-qualification-pdf-form.png", fullPage: true });
  const href = (await link.getAttribute("href")) ?? "";
  const opened = await page.request.get(href);
  expect(opened.status()).toBe(200);
  expect(opened.headers()["content-type"]).toBe("application/pdf");
  expect(opened.headers()["content-disposition"]).toMatch(/^inline;/);
  expect(opened.headers()["x-content-type-options"]).toBe("nosniff");
  expect((await opened.body()).toString("latin1")).toBe(PDF);
  expectNoReactErrors(page);
});
