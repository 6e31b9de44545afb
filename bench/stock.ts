/**
 * The stock approvals without HTTP (`npm run bench`'s `stock` scenario, scripts/bench/scenarios/stock.mjs): the
 * product's own transition service (`runTransition`, decision 060) called in a process of its own on the bench's
 * database, beside the server — no routing, session look-up, permission check, body parsing or envelope.
 *
 *   vite-node bench/stock.ts floor <database> <entity> <id,id,…>  approves each document in turn; prints one JSON line
 *                                                                 with each approval's milliseconds
 *   vite-node bench/stock.ts receive <database> <id,id,…>         receives each approved purchase order whole, as
 *                                                                 `purchse/receive` does (decision 072); prints the ms
 *   vite-node bench/stock.ts bare <database> <port> <entity>      serves POST {"id"} → the same approval (the request's
 *                                                                 Idempotency-Key passed on, so the transaction is the
 *                                                                 API's, key included); prints "ready"
 *
 * On SQLite this process and the server share the file as two instances do (decision 052).
 */
import { createServer } from "node:http";
import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db";
import type { ApiServices, SessionContext } from "../server/http/endpoint";
import { loadLines, runTransition } from "../server/kernel/transitions";
import { serverModules } from "../server/modules";
import { receive } from "../server/modules/zhhq/purchase";
import { purchse } from "../resources/zhhq/purchase";

const TENANT = 1;
const ADMIN = 1;

const [mode, database, ...rest] = process.argv.slice(2);
const handle = await openDatabase(database);
const services: ApiServices = { db: handle.db, dialect: handle.dialect, config: loadConfig({ ...process.env, DATABASE_URL: database }) };

/** The declared document and its server rules, found as the API router finds them (decision 062). */
function documentOf(entity: string) {
  for (const module of serverModules) {
    const doc = (module.declaration.documents ?? []).find((d) => d.entity === entity);
    if (doc) return { doc, rules: module.documentRules[doc.docType] ?? {} };
  }
  throw new Error(`no declared document ${entity}`);
}

/** The admin's context, as the API builds it for a signed-in request to the approval's path. */
function contextFor(path: string, headers: Record<string, string> = {}): SessionContext {
  const url = new URL(path, "http://127.0.0.1");
  return {
    services,
    request: new Request(url, { method: "POST", headers }),
    url,
    ip: "127.0.0.1",
    userAgent: null,
    now: Date.now(),
    responseHeaders: new Headers(),
    session: { tokenHash: "", bearerToken: null, userId: ADMIN, homeTenantId: TENANT, tenantId: TENANT, userName: "admin", roles: ["admin"], roleTypes: ["admin"], pwdSecurityLevel: 2 },
  };
}

function approver(entity: string) {
  const { doc, rules } = documentOf(entity);
  const transition = doc.workflow.transitions.find((t) => t.name === "approve");
  if (!transition) throw new Error(`${entity} has no approve`);
  const path = `/api/v1/${doc.module}/${doc.entity}/approve`;
  return (id: number, headers?: Record<string, string>) => runTransition(contextFor(path, headers), doc, rules, transition, { id }, { id });
}

if (mode === "floor") {
  const [entity, ids] = rest;
  const approve = approver(entity);
  const ms: number[] = [];
  for (const id of ids.split(",").map(Number)) {
    const started = performance.now();
    await approve(id);
    ms.push(Math.round((performance.now() - started) * 10) / 10);
  }
  await handle.close();
  console.log(JSON.stringify({ ms }));
} else if (mode === "receive") {
  const [ids] = rest;
  const ms: number[] = [];
  for (const id of ids.split(",").map(Number)) {
    const lines = (await loadLines(handle.db, purchse, TENANT, id)).map((l) => ({ purchseLineId: Number(l.id), quantity: Number(l.quantity) / 1000 }));
    const body = { id, lines };
    const started = performance.now();
    await receive(contextFor("/api/v1/zhhq/purchse/receive"), body as never, body);
    ms.push(Math.round((performance.now() - started) * 10) / 10);
  }
  await handle.close();
  console.log(JSON.stringify({ ms }));
} else if (mode === "bare") {
  const [port, entity] = rest;
  const approve = approver(entity);
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", async () => {
      const key = req.headers["idempotency-key"];
      try {
        const data = await approve(Number(JSON.parse(text).id), typeof key === "string" ? { "Idempotency-Key": key } : {});
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ status: 200, data }));
      } catch (error) {
        res.writeHead(500, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ status: 500, message: String(error) }));
      }
    });
  });
  server.listen(Number(port), "127.0.0.1", () => console.log("ready"));
  process.once("SIGTERM", () => server.close(() => void handle.close().then(() => process.exit(0))));
} else {
  throw new Error("usage: bench/stock.ts floor <database> <entity> <ids> | receive <database> <ids> | bare <database> <port> <entity>");
}
