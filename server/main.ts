import { createReadStream, existsSync, statSync } from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import { extname, join, normalize, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { createGzip } from "node:zlib";
import { createRequestHandler, type ServerBuild } from "react-router";
import "../resources/z";
import { ConfigError, loadConfig, type Config } from "./config";
import { migrateToLatest, openDatabase, startServing } from "./db";
import { runRequestedRecounts } from "./modules/projections";
import { databaseFault, faultMessage, logDatabaseFault } from "./db/faults";
import { holdInstanceNumber, type InstanceLease } from "./db/instanceLease";
import { startOutboxDispatcher } from "./modules/zhct/outbox";
import { startAutoChargeScheduler } from "./modules/zhct/autoCharge";
import { startIdempotencyKeyPruner } from "./kernel/idempotency";
import { startDefaultOrderScheduler } from "./modules/zhct/defaultOrders";
import { startPointsExpiryScheduler } from "./modules/zhct/points";
import { startNoShowScheduler } from "./modules/zhct/bookings";
import { seed } from "./modules/seed";
import { seedDemo } from "./modules/zhct/demo";
import { startBenchHook } from "./benchHook";
import { CallScope, createApi } from "./http/api";
import { serverModules } from "./modules/index";
import { checkedFormPost, isFormType } from "./http/body";
import { isHttps } from "./http/cookies";
import { hostedFetch, type HostedFetch } from "./http/hosted";
import { answerClientError, busyResponse, createListener, hasNoDeadline, READ_DEADLINE_MS, type Respond } from "./http/listener";
import { createReadPacer } from "./http/readPacer";
import { createRenderGate } from "./http/renderGate";
import { startupErrorMessage } from "./startupErrors";
import { applySecurityHeaders, keepRedirectOnSite, newNonce, refusedPageRequest } from "./http/security";
import { envelopeText } from "./http/envelope";
import { keepWholeBody } from "./http/wholeBody";

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
  /** Stops accepting, lets the requests received finish (until SHUTDOWN_TIMEOUT_SECONDS), closes the database. */
  close(): Promise<void>;
}

/**
 * The whole product as one web handler: what `start` listens with, and what another host of the server build
 * (`react-router-serve`, decision 020) calls through the build's `fetch` export.
 */
export interface AppHandler {
  respond: Respond;
  /** The response for an error `respond` threw: 503 for a database fault (logged once), else a logged 500. */
  onError(error: unknown): Response;
  /** Releases the instance number and closes the database; after the last request. */
  release(): Promise<void>;
}

/** Validated configuration in, migrated and seeded database, ready handler out; nothing listens yet. */
export async function prepare(config: Config): Promise<AppHandler> {
  const database = await openDatabase(config.DATABASE_URL);
  const seeded = await database
    .exclusive(async () => {
      await migrateToLatest(database.db);
      await runRequestedRecounts(database.db);
      const seeded = await seed(database.db, { adminPassword: config.CANTEEN_ADMIN_PASSWORD });
      // The first admin was just made, so the database was empty: the only start that seeds the demo by itself.
      if (seeded.adminPassword && config.CANTEEN_DEMO) {
        const demo = await seedDemo(database.db, { password: config.CANTEEN_DEMO_PASSWORD });
        console.log(`示例食堂已生成：用户名 ${demo.userName}，密码${config.CANTEEN_DEMO_PASSWORD ? "取自 CANTEEN_DEMO_PASSWORD" : ` ${demo.password}`}（首次登录后须修改）；${demo.orders} 笔订单，${demo.seconds.toFixed(0)} 秒`);
      }
      await startServing(database);
      return seeded;
    })
    .catch(async (error: unknown) => {
      await database.close().catch(() => {});
      throw error;
    });
  // Every process leases its own instance number, on SQLite too: two processes on one file (one starting while the
  // other stops, or run side by side) made the same ids in the same millisecond.
  const lease: InstanceLease = await holdInstanceNumber(database.db, database.dialect).catch(async (error: unknown) => {
    await database.close().catch(() => {});
    throw error;
  });
  console.log(`实例编号 ${lease.number}`);
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
  const handleRequest = createRequestHandler(build, config.NODE_ENV === "development" ? "development" : "production");
  const refused = (request: Request) => busyResponse(!(request.headers.get("Accept") ?? "").includes("text/html"));
  const waitsAnyTime = (request: Request) => hasNoDeadline(new URL(request.url));
  const gate = createRenderGate({ limit: config.MAX_RENDERS_AT_ONCE, msPerTurn: config.RENDER_MS_PER_TURN, maxWaitMs: READ_DEADLINE_MS, refused, waitsAnyTime });
  // A page's loaders read the API in process, inside the page's turn of the render gate: only a client's reads are
  // paced. The health check is not: one query, and a balancer that read "busy" as "down" would add to the overload.
  const reads = createReadPacer({ msPerTurn: config.API_READ_MS_PER_TURN, maxWaitMs: READ_DEADLINE_MS, refused, waitsAnyTime });
  const callApi = (request: Request, clientAddress: string, pathname: string) =>
    (request.method === "GET" || request.method === "HEAD") && pathname !== "/healthz"
      ? reads.read(request, () => api.handle(request, clientAddress))
      : api.handle(request, clientAddress);
  const handleDocument: typeof handleRequest = (request, context) => gate.render(request, () => handleRequest(request, context));
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
    const refused = toApi ? null : refusedPageRequest(request, url);
    // A page's action reads a form; a body it cannot read is refused here, not inside the action as a 500.
    const page = toApi || refused || request.method !== "POST" ? request : await checkedFormPost(request);
    let response =
      refused ||
      (page instanceof Response && page) ||
      (toApi && (await callApi(request, clientAddress, url.pathname))) ||
      staticResponse(clientDir, request, url.pathname) ||
      (await handleDocument(page as Request, { nonce: (nonce = newNonce()), clientAddress, apiFetch: apiFetch(clientAddress), envelopeText, keepWholeBody }));
    // Our handlers make their responses, so their headers are changed in place rather than copied; a response
    // with immutable headers (as fetch() returns) is copied first.
    const https = isHttps(request);
    const secure = (headers: Headers) => {
      applySecurityHeaders(headers, nonce, https, config.IFRAME_ALLOWED_HOSTS);
      keepRedirectOnSite(headers, url.origin);
    };
    try {
      secure(response.headers);
    } catch {
      response = new Response(response.body, response);
      secure(response.headers);
    }
    return response;
  }

  const onError = (error: unknown) => {
    const fault = databaseFault(error);
    if (fault) {
      logDatabaseFault(error);
      return new Response(faultMessage(fault), { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    }
    console.error(error);
    return new Response("服务器内部错误", { status: 500 });
  };
  // Sends what modules put in the message outbox; several instances share it without sending a message twice.
  const dispatcher = startOutboxDispatcher(database.db);
  const jobs = config.CANTEEN_JOBS
    ? [
        // Monthly subsidy grants run by themselves on their day; a job lease lets one instance at a time run them.
        startAutoChargeScheduler(database.db, database.dialect),
        // Points past their strategy's expiry are written off by one instance at a time (a job lease of its own).
        startPointsExpiryScheduler(database.db, database.dialect),
        // The next day's default orders, from each tenant's hour (decision 027); the job's lease and the orders' keys keep them single.
        startDefaultOrderScheduler({ db: database.db, dialect: database.dialect, config }),
        // Bookings whose meal ended unpaid are marked 已预约未就餐 by one instance at a time.
        startNoShowScheduler(database.db, database.dialect),
        // Idempotency keys past their 90 days are deleted, hourly (decision 017).
        startIdempotencyKeyPruner(database.db),
      ]
    : [];
  // `npm run bench` only: a document step without HTTP in this very process, its floor (server/benchHook.ts).
  const benchHook =
    process.env.CANTEEN_BENCH === "1" && process.env.CANTEEN_BENCH_PORT
      ? startBenchHook({ db: database.db, dialect: database.dialect, config }, serverModules, Number(process.env.CANTEEN_BENCH_PORT))
      : null;
  const release = async () => {
    benchHook?.close();
    await dispatcher.stop();
    for (const job of jobs) await job.stop().catch(() => {});
    await lease.release().catch((error: unknown) => logDatabaseFault(error));
    await database.close();
  };
  return { respond, onError, release };
}

/** After the signal, a kept-alive connection that stays quiet this long is closed (one that asks is answered). */
const IDLE_GRACE_MS = 500;

/**
 * How long a kept-alive connection may stay idle before the server closes it. Node's 5 s is shorter than clients keep
 * theirs (a terminal's or a test's connection pool reuses a connection after many seconds): a request sent just as the
 * server closed the idle connection met a reset (ECONNRESET), and a client does not send a POST again by itself. At
 * 65 s a client's pause between requests rarely meets the close; a stop still ends idle connections at once (below).
 * The headers of a request must come within a little more (Node wants it longer than the idle time).
 */
const KEEP_ALIVE_MS = 65_000;

/** Resolves after the event loop's next poll phase, in which it accepts waiting connections and reads waiting bytes. */
const afterPoll = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function start(config: Config = loadConfig()): Promise<RunningServer> {
  const app = await prepare(config);
  const server = http.createServer(
    createListener(app.respond, { trustProxy: config.TRUST_PROXY, isApiPath, onError: app.onError, maxInFlight: config.MAX_REQUESTS_IN_FLIGHT }),
  );
  server.on("clientError", answerClientError);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;

  // Requests in flight per connection, so that a shutdown can tell busy connections from idle ones.
  const inFlight = new Map<net.Socket, number>();
  // Bytes a connection had read when its last request ended: more since then are a request on its way in.
  const readWhenIdle = new Map<net.Socket, number>();
  const responsesInFlight = new Set<http.ServerResponse>();
  let draining = false;
  let accepted = 0;
  const endIfIdle = (socket: net.Socket) => {
    if (!inFlight.get(socket) && socket.bytesRead <= (readWhenIdle.get(socket) ?? 0)) socket.end();
  };
  server.on("connection", (socket: net.Socket) => {
    accepted++;
    inFlight.set(socket, 0);
    readWhenIdle.set(socket, 0);
    socket.once("close", () => {
      inFlight.delete(socket);
      readWhenIdle.delete(socket);
    });
  });
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    responsesInFlight.add(res);
    if (draining) res.setHeader("Connection", "close");
    res.once("close", () => {
      responsesInFlight.delete(res);
      const left = inFlight.get(socket);
      if (left !== undefined) inFlight.set(socket, left - 1);
      if (readWhenIdle.has(socket)) readWhenIdle.set(socket, socket.bytesRead);
      if (draining) setImmediate(() => endIfIdle(socket));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await app.release().catch(() => {});
    throw error;
  });
  console.log(`智慧餐厅后台管理 已启动：http://${config.HOST === "0.0.0.0" ? "localhost" : config.HOST}:${config.PORT}`);

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      const busy = [...inFlight.values()].reduce((sum, n) => sum + n, 0);
      console.log(`正在停止：不再接受新连接，等待 ${busy} 个进行中的请求完成（最多 ${config.SHUTDOWN_TIMEOUT_SECONDS} 秒）`);
      for (const res of responsesInFlight) if (!res.headersSent) res.setHeader("Connection", "close");
      const deadline = setTimeout(() => {
        const cut = [...inFlight.values()].reduce((sum, n) => sum + n, 0);
        if (cut) console.error(`停止期限已到：${cut} 个请求未完成即被中断`);
        server.closeAllConnections();
        inFlight.forEach((_, socket) => socket.destroy());
      }, config.SHUTDOWN_TIMEOUT_SECONDS * 1000).unref();
      // Connections the kernel completed before the signal wait in the listening socket's queue until the event loop
      // accepts them: one per turn of the loop, and a busy loop turns slowly (six waited up to half a second behind
      // SQLite's page renders). Closing the listener resets them, with their requests already sent: every request of
      // a client that sends `Connection: close` comes on such a new connection. So the listener stays open until two
      // turns in a row accept nothing (the queue is empty), for at most half the deadline under a stream of new ones.
      const acceptUntil = Date.now() + (config.SHUTDOWN_TIMEOUT_SECONDS * 1000) / 2;
      for (let quietTurns = 0; quietTurns < 2 && Date.now() < acceptUntil; ) {
        const before = accepted;
        await afterPoll();
        quietTurns = accepted === before ? quietTurns + 1 : 0;
      }
      await new Promise<void>((resolve) => {
        // net.Server's close stops listening and waits for the connections; http.Server's would also drop the idle
        // kept-alive ones at once, losing a request already on its way in them.
        net.Server.prototype.close.call(server, () => resolve());
        // A quiet connection is ended only after a poll phase has read what reached it: a busy loop can run this
        // timer before it reads a request that arrived long before.
        setTimeout(() => void afterPoll().then(() => inFlight.forEach((_, socket) => endIfIdle(socket))), IDLE_GRACE_MS).unref();
      });
      clearTimeout(deadline);
      await app.release();
      console.log("已停止");
    })());
  return { server, close };
}
export { loadConfig, ConfigError, startupErrorMessage };

/**
 * `scripts/start.mjs` sets this before importing the build, then calls `start` (our own listener). Any other host
 * that imports the build — `react-router-serve ./build/server/index.js` — gets the product through `fetch` below,
 * configured, migrated and seeded while it is imported, before the host listens (decision 020).
 */
const OWN_LISTENER = Symbol.for("canteen.ownListener");

async function forAnotherHost(): Promise<HostedFetch | undefined> {
  if ((globalThis as Record<symbol, unknown>)[OWN_LISTENER]) return undefined;
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  try {
    return hostedFetch({ ...(await prepare(config)), config });
  } catch (error) {
    const message = startupErrorMessage(error, config);
    if (!message) throw error;
    console.error(message);
    process.exit(1);
  }
}

const hosted = await forAnotherHost();
/** `react-router-serve` sends every request that is not a built file here, when the build exports `fetch`. */
export { hosted as fetch };
/** Where `react-router-serve` finds the built files it serves itself. */
export { assetsBuildDirectory, publicPath } from "virtual:react-router/server-build";
