import { createReadStream, existsSync, statSync } from "node:fs";
import * as http from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { createGzip } from "node:zlib";
import { createRequestHandler, type ServerBuild } from "react-router";
import "../resources/z";
import { loadConfig, type Config } from "./config";
import { migrateToLatest, openDatabase } from "./db";
import { seed } from "./db/seed";
import { CallScope, createApi } from "./http/api";
import { checkedFormPost, isFormType } from "./http/body";
import { isHttps } from "./http/cookies";
import { createListener } from "./http/listener";
import { applySecurityHeaders, newNonce } from "./http/security";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};
const COMPRESSIBLE = new Set([".js", ".css", ".svg", ".json", ".txt"]);

function isApiPath(pathname: string): boolean {
  return pathname === "/healthz" || pathname.startsWith("/api/");
}

function isApiRequest(request: Request, pathname: string): boolean {
  if (isApiPath(pathname)) return true;
  if (request.method !== "POST") return false;
  if (pathname === "/logout") return true;
  // The sign-in page posts a form to /login; API clients post JSON there, and anything else gets the API's 400.
  return pathname === "/login" && !isFormType(request.headers.get("Content-Type"));
}

function staticResponse(clientDir: string, request: Request, pathname: string): Response | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  if (pathname === "/" || pathname.endsWith("/")) return null;
  const file = normalize(join(clientDir, decodeURIComponent(pathname)));
  if (!file.startsWith(clientDir + sep) || !existsSync(file) || !statSync(file).isFile()) return null;
  const ext = extname(file);
  const headers = new Headers({
    "Content-Type": CONTENT_TYPES[ext] ?? "application/octet-stream",
    "Cache-Control": pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600",
    Vary: "Accept-Encoding",
  });
  let stream: Readable = createReadStream(file);
  if (COMPRESSIBLE.has(ext) && (request.headers.get("Accept-Encoding") ?? "").includes("gzip")) {
    headers.set("Content-Encoding", "gzip");
    stream = stream.pipe(createGzip());
  }
  const body = request.method === "HEAD" ? null : (Readable.toWeb(stream) as ReadableStream);
  return new Response(body, { headers });
}

export interface RunningServer {
  server: http.Server;
  close(): Promise<void>;
}

export async function start(config: Config = loadConfig()): Promise<RunningServer> {
  const database = await openDatabase(config.DATABASE_URL);
  await migrateToLatest(database.db);
  const seeded = await seed(database.db, { adminPassword: config.CANTEEN_ADMIN_PASSWORD });
  if (seeded.adminPassword) {
    console.log(
      config.CANTEEN_ADMIN_PASSWORD
        ? "首次启动：管理员账号 admin，密码取自 CANTEEN_ADMIN_PASSWORD（首次登录后须修改）"
        : `首次启动：管理员账号 admin，一次性密码 ${seeded.adminPassword}（首次登录后须修改）`,
    );
  }
  if (!config.CANTEEN_CAPTCHA) console.warn("警告：CANTEEN_CAPTCHA=off，登录不校验验证码（仅用于自助终端与自动化）");

  const api = createApi({ db: database.db, dialect: database.dialect, config });
  const build = (await import("virtual:react-router/server-build")) as ServerBuild;
  const handleDocument = createRequestHandler(build, config.NODE_ENV === "development" ? "development" : "production");
  const clientDir = resolve(build.assetsBuildDirectory);

  const apiFetch = (clientAddress: string) => {
    const scope = new CallScope();
    return (request: Request) =>
      config.CANTEEN_API_URL
        ? fetch(new URL(new URL(request.url).pathname + new URL(request.url).search, config.CANTEEN_API_URL), request)
        : api.handle(request, clientAddress, scope);
  };

  async function respond(request: Request, clientAddress: string): Promise<Response> {
    const url = new URL(request.url);
    // Only a page runs scripts, so only a page needs a nonce; API and file responses get a CSP without one.
    let nonce: string | undefined;
    const toApi = isApiRequest(request, url.pathname);
    // A page's action reads a form; a body it cannot read is refused here, not inside the action as a 500.
    const page = toApi || request.method !== "POST" ? request : await checkedFormPost(request);
    let response =
      (page instanceof Response && page) ||
      (toApi && (await api.handle(request, clientAddress))) ||
      staticResponse(clientDir, request, url.pathname) ||
      (await handleDocument(page as Request, { nonce: (nonce = newNonce()), clientAddress, apiFetch: apiFetch(clientAddress) }));
    // Our handlers make their responses, so their headers are changed in place rather than copied; a response
    // with immutable headers (as fetch() returns) is copied first.
    const https = isHttps(request);
    try {
      applySecurityHeaders(response.headers, nonce, https, config.IFRAME_ALLOWED_HOSTS);
    } catch {
      response = new Response(response.body, response);
      applySecurityHeaders(response.headers, nonce, https, config.IFRAME_ALLOWED_HOSTS);
    }
    return response;
  }

  const server = http.createServer(
    createListener(respond, {
      trustProxy: config.TRUST_PROXY,
      isApiPath,
      onError: (error) => {
        console.error(error);
        return new Response("服务器内部错误", { status: 500 });
      },
    }),
  );
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  console.log(`智慧餐厅后台管理 已启动：http://${config.HOST === "0.0.0.0" ? "localhost" : config.HOST}:${config.PORT}`);

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      // Stop accepting, let requests in flight finish, then close the database.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await database.close();
    })());
  return { server, close };
}
export { loadConfig, ConfigError } from "./config";
