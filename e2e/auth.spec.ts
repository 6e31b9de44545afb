import { expect, test } from "@playwright/test";
import { signIn, signInFresh } from "./support/auth";
import { ADMIN_INITIAL_PASSWORD, E2E_PORTS, e2eUsers } from "./support/servers";

const { operator } = e2eUsers;

test("an anonymous visit to a protected page signs in and returns there", { tag: "@journey" }, async ({ page }) => {
  await page.goto("/admin/dashboard?from=bookmark");
  await expect(page).toHaveURL(/\/login\?redirect=%2Fadmin%2Fdashboard%3Ffrom%3Dbookmark$/);
  await expect(page).toHaveTitle(/智慧餐厅后台管理/);
  await signIn(page, `  ${operator.userName}  `, operator.password);
  await expect(page).toHaveURL(/\/admin\/dashboard\?from=bookmark$/);
  await expect(page.getByTestId("current-user")).toHaveText(operator.userName);
  await expect(page.getByRole("link", { name: "首页" })).toBeVisible();
});

test("the root goes to the dashboard and /login with a token goes home", async ({ page }) => {
  await signInFresh(page, operator.userName, operator.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto("/login");
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test("a wrong password shows the server's message and keeps the user name", async ({ page }) => {
  await page.goto("/login");
  await signIn(page, operator.userName, "not-the-password");
  await expect(page.getByRole("alert")).toHaveText("用户名或密码错误");
  await expect(page.getByLabel("用户名")).toHaveValue(operator.userName);
  await expect(page).toHaveURL(/\/login/);
});

test("empty fields get their messages at the field", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page.getByText("请输入用户名")).toBeVisible();
  await expect(page.getByText("请输入密码")).toBeVisible();
});

test("after five failures the name is locked even for the right password", async ({ page }) => {
  const { lockme } = e2eUsers;
  await page.goto("/login");
  for (let attempt = 1; attempt <= 5; attempt++) {
    await signIn(page, lockme.userName, `wrong-${attempt}`);
    await expect(page.getByRole("alert")).toContainText("用户名或密码错误");
  }
  await signIn(page, lockme.userName, lockme.password);
  await expect(page.getByRole("alert")).toContainText("锁定");
  await expect(page).toHaveURL(/\/login/);
});

test("a wrong captcha shows its message; the picture refreshes on click", async ({ page }) => {
  await page.goto(`http://127.0.0.1:${E2E_PORTS.captcha}/login`);
  const picture = page.getByTestId("captcha-image");
  await expect(picture).toBeVisible();
  await page.waitForLoadState("networkidle");
  const first = await picture.getAttribute("src");
  await picture.click();
  await expect(picture).not.toHaveAttribute("src", first ?? "");
  await page.getByLabel("用户名").fill(operator.userName);
  await page.getByLabel("密码", { exact: true }).fill(operator.password);
  await page.getByLabel("验证码").fill("0000");
  await page.getByRole("button", { name: "登录" }).click();
  await expect(page.getByRole("alert")).toHaveText("验证码错误或已过期");
});

test("first sign-in must change the password before anything else", async ({ page }) => {
  await page.goto("/login");
  await signIn(page, "admin", ADMIN_INITIAL_PASSWORD);
  await expect(page).toHaveURL(/\/admin\/auth\/user\/modifyPasswd$/);
  const alert = page.getByTestId("first-login-alert");
  await expect(alert).toContainText("修改密码");
  await expect(alert).toContainText("首次登录");
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/admin\/auth\/user\/modifyPasswd$/);

  await page.getByLabel("原密码").fill(ADMIN_INITIAL_PASSWORD);
  await page.getByLabel("新密码", { exact: true }).fill("admin");
  await page.getByLabel("确认新密码").fill("admin");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("新密码至少 8 个字符")).toBeVisible();

  await page.getByLabel("新密码", { exact: true }).fill("password123");
  await page.getByLabel("确认新密码").fill("password123");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("新密码过于常见，请换一个")).toBeVisible();
  await expect(page.getByLabel("原密码")).toHaveValue(ADMIN_INITIAL_PASSWORD);

  await page.getByLabel("新密码", { exact: true }).fill("Canteen-Admin-2026!");
  await page.getByLabel("确认新密码").fill("Canteen-Admin-2026!");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByTestId("flash")).toHaveText("密码已修改");
  await expect(page.getByTestId("stat-userCount")).toHaveText(/\d+/);
});

test("logout goes to the sign-in page and the old token is refused", { tag: "@journey" }, async ({ page, request }) => {
  await signInFresh(page, operator.userName, operator.password);
  const token = (await page.context().cookies()).find((c) => c.name === "Admin-Token");
  expect(token?.httpOnly).toBe(true);
  expect(token?.sameSite).toBe("Lax");
  // The sign-in page reloads a second after logout (spec §4); a visit made before that reload would be cut short by it.
  const reloaded = page.waitForEvent("load");
  await page.getByRole("button", { name: "退出登录" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await reloaded;
  const info = await request.get("/api/v1/auth/user/info", { headers: { Authorization: `Bearer ${token?.value}` } });
  expect((await info.json()).status).toBe(50014);
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/login\?redirect=/);
});

test("a user without roles is sent back with the spec's message", async ({ page }) => {
  const { noRoles } = e2eUsers;
  await page.goto("/login");
  await signIn(page, noRoles.userName, noRoles.password);
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole("alert")).toHaveText("getInfo: roles must be a non-null array!");
  expect((await page.context().cookies()).find((c) => c.name === "Admin-Token")).toBeUndefined();
});

test("only a same-site relative redirect is followed after sign-in", async ({ page }) => {
  await page.goto("/login?redirect=//evil.example/steal");
  await signIn(page, operator.userName, operator.password);
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/admin\/dashboard$/);
});

test("pages carry the security headers and run under the nonce CSP without violations", { tag: "@journey" }, async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto("/login");
  const headers = response?.headers() ?? {};
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'self'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBeTruthy();
  expect(headers["x-powered-by"]).toBeUndefined();
  await signIn(page, operator.userName, operator.password);
  await expect(page.getByTestId("current-user")).toBeVisible();
  expect(violations).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign-in works and lands on the page asked for", { tag: "@journey" }, async ({ page }) => {
    const { nojs } = e2eUsers;
    await page.goto("/admin/dashboard");
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await signIn(page, nojs.userName, "wrong-password");
    await expect(page.getByRole("alert")).toHaveText("用户名或密码错误");
    await signIn(page, nojs.userName, nojs.password);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByTestId("current-user")).toHaveText(nojs.userName);
    await page.getByRole("button", { name: "退出登录" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
