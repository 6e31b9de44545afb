import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import * as http from "node:http";
import { join } from "node:path";
import { expect, test, type APIRequestContext, type BrowserContext } from "@playwright/test";
import { apiAs } from "./support/api";
import { E2E_PORTS, e2eUsers } from "./support/servers";

const { ticketSender, ticketVictim, operator } = e2eUsers;
const HOST = `127.0.0.1:${E2E_PORTS.main}`;
const ATTACKER = "http://attacker.example";

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request sent byte for byte as written (a browser or fetch would normalise the path first). */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string, port: number = E2E_PORTS.main): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const framing = body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(body)) };
    const request = http.request({ host: "127.0.0.1", port, method, path, headers: { ...framing, ...headers } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

async function sessionCookie(request: APIRequestContext, user: { userName: string; password: string }) {
  return `Admin-Token=${(await apiAs(request, user.userName, user.password)).token}`;
}

/** Signs a browser context in as `user` through the API (the cookie lands in the context). */
async function signedIn(context: BrowserContext, user: { userName: string; password: string }) {
  await apiAs(context.request, user.userName, user.password);
}

async function ticketOf(request: APIRequestContext, user: { userName: string; password: string }, path = "/admin/dashboard") {
  const caller = await apiAs(request, user.userName, user.password);
  const answer = await caller.post("/api/v1/auth/ticket", { path });
  expect(answer.status).toBe(200);
  return answer.data as { ticket: string; url: string };
}

test.describe("input that must not reach a server error", () => {
  test("an address that does not decode is a 400 page", async () => {
    for (const path of ["/%E0%A4%A", "/admin/%E0%A4%A", "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd"]) {
      const answer = await raw("GET", path, { Cookie: "Admin-Token=x" });
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toBe("请求地址无效");
    }
  });

  test("TRACE, PUT, DELETE and PATCH on pages are 405; page actions take only forms", async ({ request }) => {
    const cookie = await sessionCookie(request, operator);
    for (const path of ["/", "/login", "/admin/auth/test/create", "/api/v1/auth/user/info"]) {
      const answer = await raw("TRACE", path);
      expect(answer.status, path).toBe(405);
      expect(answer.headers.allow).toBe("GET, HEAD, POST");
    }
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      for (const path of ["/admin/auth/test/index?index", "/admin/auth/test/create"]) {
        const answer = await raw(method, path, { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" }, "a=1");
        expect(answer.status, `${method} ${path}`).toBe(405);
      }
    }
    for (const path of ["/admin/auth/test/index?index", "/admin/auth/test/create"]) {
      const json = await raw("POST", path, { Cookie: cookie, "Content-Type": "application/json" }, "{}");
      expect(json.status, path).toBe(400);
      expect(json.body).toBe("请以表单提交");
      const empty = await raw("POST", path, { Cookie: cookie });
      expect(empty.status, path).toBe(400);
    }
  });

  test("an action whose Origin is another site is refused as a client error", async ({ request }) => {
    const cookie = await sessionCookie(request, operator);
    const answer = await raw("POST", "/admin/auth/test/create", { Cookie: cookie, Origin: ATTACKER, "Content-Type": "application/x-www-form-urlencoded" }, "name=x");
    expect(answer.status).toBe(403);
    expect(answer.body).toBe("拒绝来自其他站点的请求");
  });
});

test.describe("open redirects", () => {
  const shapes = ["//evil.example", "/.//evil.example", "/\\evil.example", "/./\\evil.example", "\\\\evil.example", "%2F%2Fevil.example", "/\t/evil.example", "/\n/evil.example", "https:evil.example", "https://evil.example/"];

  test("sign-in by form follows only a path of this site", async () => {
    for (const redirect of shapes) {
      const body = new URLSearchParams({ username: operator.userName, password: operator.password, redirect }).toString();
      const answer = await raw("POST", "/login", { "Content-Type": "application/x-www-form-urlencoded", Origin: `http://${HOST}` }, body);
      expect(answer.status, JSON.stringify(redirect)).toBe(302);
      expect(answer.headers.location, JSON.stringify(redirect)).toBe("/");
    }
  });

  test("a path that begins with two slashes or a backslash never redirects off the site", async ({ request }) => {
    const cookie = await sessionCookie(request, operator);
    const ticket = (await ticketOf(request, operator)).ticket;
    const cases: Array<[string, Record<string, string>]> = [
      ["//evil.example/?ticket=x", { Cookie: cookie }],
      ["/\\evil.example/?ticket=x", { Cookie: cookie }],
      ["//evil.example/", {}],
      [`//evil.example/?ticket=${ticket}`, {}],
    ];
    for (const [path, headers] of cases) {
      const answer = await raw("GET", path, headers);
      const location = answer.headers.location ?? "";
      expect(answer.status, path).toBe(302);
      expect(location, path).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, `http://${HOST}`).host, path).toBe(HOST);
    }
    // Signed in and without a ticket, such a path is simply no page of this site.
    for (const path of ["//evil.example/", "/\\evil.example/"]) expect((await raw("GET", path, { Cookie: cookie })).status, path).toBe(404);
  });
});

test.describe("headers", () => {
  test("signed-in pages, API answers and files are no-store; built assets stay cacheable", async ({ page, request }) => {
    const caller = await apiAs(request, operator.userName, operator.password);
    const cookie = `Admin-Token=${caller.token}`;
    for (const path of ["/admin/dashboard", "/admin/auth/user/index", "/api/v1/auth/user/info"]) {
      const answer = await raw("GET", path, { Cookie: cookie });
      expect(answer.status, path).toBe(200);
      expect(answer.headers["cache-control"], path).toBe("no-store");
    }
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==", "base64");
    const upload = await request.post("/api/v1/sys/file/upload?kind=image", {
      headers: { Authorization: `Bearer ${caller.token}` },
      multipart: { file: { name: "a.png", mimeType: "image/png", buffer: png } },
    });
    const uploaded = (await upload.json()).data as { url: string };
    const file = await raw("GET", uploaded.url, { Cookie: cookie });
    expect(file.status).toBe(200);
    expect(file.headers["cache-control"]).toBe("no-store");
    expect(file.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");

    // The sign-in page loads no modules (decision 019); its stylesheet is a built asset all the same.
    await page.goto("/login");
    const script = await page
      .locator("script[src^='/assets/'], link[rel=modulepreload][href^='/assets/'], link[rel=stylesheet][href^='/assets/']")
      .first()
      .evaluate((e) => e.getAttribute("src") ?? e.getAttribute("href"));
    const asset = await raw("GET", script as string);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  test("after the session ends, the back button does not show the signed-in page from the cache", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("用户名").fill(operator.userName);
    await page.getByLabel("密码", { exact: true }).fill(operator.password);
    await page.getByRole("button", { name: "登录" }).click();
    await expect(page.getByTestId("current-user")).toHaveText(operator.userName);
    await page.goto("/admin/auth/user/index");
    await expect(page.getByTestId("current-user")).toHaveText(operator.userName);
    // The session ends (signed out elsewhere, or timed out) and the terminal moves on; the next person presses Back.
    await page.context().request.post("/logout", { headers: { "Content-Type": "application/json" } });
    expect((await page.context().cookies()).find((c) => c.name === "Admin-Token")).toBeUndefined();
    await page.goto("about:blank");
    await page.goBack();
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await expect(page.getByTestId("current-user")).toHaveCount(0);
  });
});

test.describe("sign-in tickets", () => {
  /** A page on another site whose link carries a ticket to this one. */
  async function lure(context: BrowserContext, target: string) {
    await context.route(`${ATTACKER}/**`, (route) =>
      route.fulfill({ contentType: "text/html", body: `<!doctype html><a id="go" href="${target}">查看报表</a>` }),
    );
    const page = await context.newPage();
    await page.goto(`${ATTACKER}/lure`);
    await page.click("#go");
    return page;
  }

  test("a ticket from another site does not sign a signed-in user into the sender's account", async ({ browser, request }) => {
    const { ticket } = await ticketOf(request, ticketSender);
    const victim = await browser.newContext();
    await signedIn(victim, ticketVictim);
    const page = await lure(victim, `http://${HOST}/admin/dashboard?ticket=${ticket}`);
    await expect(page).toHaveURL(`http://${HOST}/admin/dashboard`);
    await expect(page.getByTestId("current-user")).toHaveText(ticketVictim.userName);
    await victim.close();
  });

  test("a ticket from another site does not sign a visitor in at all", async ({ browser, request }) => {
    const { ticket } = await ticketOf(request, ticketSender);
    const visitor = await browser.newContext();
    const page = await lure(visitor, `http://${HOST}/admin/dashboard?ticket=${ticket}`);
    await expect(page).toHaveURL(/\/login\?redirect=%2Fadmin%2Fdashboard$/);
    await expect(page.getByRole("alert")).toHaveText("来自其他站点的登录链接已拒绝，请直接登录");
    expect((await visitor.cookies()).find((c) => c.name === "Admin-Token")).toBeUndefined();
    await visitor.close();
  });

  test("a ticket of another user never replaces the session already signed in here", async ({ browser, request }) => {
    const { url } = await ticketOf(request, ticketSender);
    const victim = await browser.newContext();
    await signedIn(victim, ticketVictim);
    const before = (await victim.cookies()).find((c) => c.name === "Admin-Token")?.value;
    const page = await victim.newPage();
    await page.goto(url);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByTestId("current-user")).toHaveText(ticketVictim.userName);
    expect((await victim.cookies()).find((c) => c.name === "Admin-Token")?.value).toBe(before);
    await victim.close();
  });

  test("a ticket is issued only for this site's paths; one meant for another host cannot be exchanged here", async ({ request }) => {
    const caller = await apiAs(request, ticketSender.userName, ticketSender.password);
    const refused = await caller.post("/api/v1/auth/ticket", { path: "https://partner.example/report" });
    expect(refused.status).toBe(400);
    const { ticket } = await ticketOf(request, ticketSender);
    const noOrigin = await request.post("/api/v1/auth/ticket/exchange", { data: { ticket } });
    expect((await noOrigin.json()).status).toBe(403);
    expect(noOrigin.headers()["set-cookie"]).toBeUndefined();
  });
});

test.describe("behind a trusted proxy", () => {
  const port = E2E_PORTS.main + 7;
  let server: ChildProcess;

  test.beforeAll(async () => {
    const dir = join(process.cwd(), "test-results", `e2e-proxy-${port}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    server = spawn(process.execPath, ["scripts/start.mjs", "--no-build"], {
      env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: join(dir, "proxy.db"), TRUST_PROXY: "on", CANTEEN_ADMIN_PASSWORD: "Proxy-Admin-First-1" },
      stdio: "ignore",
    });
    await expect.poll(async () => (await raw("GET", "/healthz", {}, undefined, port).catch(() => ({ status: 0 }))).status, { timeout: 30_000 }).toBe(200);
  });
  test.afterAll(() => {
    server?.kill("SIGTERM");
  });

  test("HTTPS as the proxy reports it brings Strict-Transport-Security; plain HTTP and an untrusted claim do not", async () => {
    for (const path of ["/login", "/api/v1/auth/loginConfig"]) {
      const https = await raw("GET", path, { "X-Forwarded-Proto": "https" }, undefined, port);
      expect(https.headers["strict-transport-security"], path).toBe("max-age=31536000");
      const plain = await raw("GET", path, { "X-Forwarded-Proto": "http" }, undefined, port);
      expect(plain.headers["strict-transport-security"], path).toBeUndefined();
      // Without TRUST_PROXY the header is anyone's to send, so it proves nothing.
      const untrusted = await raw("GET", path, { "X-Forwarded-Proto": "https" });
      expect(untrusted.headers["strict-transport-security"], path).toBeUndefined();
    }
  });
});
