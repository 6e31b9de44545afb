import * as http from "node:http";
import type { ApiServices, SessionContext } from "./http/endpoint";
import { purchse } from "../resources/zhhq/purchase";
import { idempotent } from "./kernel/idempotency";
import { loadLines, runTransition } from "./kernel/transitions";
import type { ServerModule } from "./modules/manifest";
import { closingWork } from "./modules/zhhq/closing";
import { receive } from "./modules/zhhq/purchase";

/**
 * `npm run bench`'s view of a document step without HTTP, inside the server under test (CANTEEN_BENCH=1 and
 * CANTEEN_BENCH_PORT set, on 127.0.0.1 only): the same warm process, production build, database handle and
 * transaction (`runTransition`, Idempotency-Key included) as the API's step, without its routing, session look-up,
 * permission check, body validation and envelope (scripts/bench/scenarios/stock.mjs).
 *
 *   POST /step  {entity, step, id}   the bare handler: one step, answered as JSON (the request's Idempotency-Key
 *                                    passed on)
 *   POST /floor {entity, step, ids}  the floor: each step in turn, timed inside this process around the call;
 *                                    answers {ms: [...]}
 *   POST /receive {ids}              each approved purchase order received whole, as `purchse/receive` does (decision
 *                                    072), timed alike; answers {ms: [...]}
 *   POST /generate {months}          生成 of each month in turn, as `warehouseAccountMonthSettle/generate` does
 *                                    (scripts/bench/scenarios/closing.mjs), timed alike; answers {ms: [...]}
 *
 * Never served otherwise: it acts as the first tenant's admin without a session.
 */
const TENANT = 1;
const ADMIN = 1;

function stepOf(modules: readonly ServerModule[], entity: string, name: string) {
  for (const module of modules) {
    const doc = (module.declaration.documents ?? []).find((d) => d.entity === entity);
    if (!doc) continue;
    const transition = doc.workflow.transitions.find((t) => t.name === name);
    if (!transition) break;
    return { doc, rules: module.documentRules[doc.docType] ?? {}, transition };
  }
  throw new Error(`no declared document ${entity} with a step ${name}`);
}

/** The admin's context, as the API builds it for a signed-in request to the step's path. */
function contextFor(services: ApiServices, path: string, headers: Record<string, string>): SessionContext {
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

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as Record<string, unknown>;
}

export function startBenchHook(services: ApiServices, modules: readonly ServerModule[], port: number): http.Server {
  const step = (entity: string, name: string, id: number, headers: Record<string, string>) => {
    const { doc, rules, transition } = stepOf(modules, entity, name);
    return runTransition(contextFor(services, `/api/v1/${doc.module}/${doc.entity}/${name}`, headers), doc, rules, transition, { id }, { id });
  };
  const server = http.createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    void (async () => {
      try {
        const body = await readJson(req);
        const entity = String(body.entity);
        const name = String(body.step);
        if (req.url === "/step") {
          const key = req.headers["idempotency-key"];
          return answer(200, { status: 200, data: await step(entity, name, Number(body.id), typeof key === "string" ? { "Idempotency-Key": key } : {}) });
        }
        if (req.url === "/receive") {
          const ms: number[] = [];
          for (const id of body.ids as number[]) {
            const lines = (await loadLines(services.db, purchse, TENANT, id)).map((l) => ({ purchseLineId: Number(l.id), quantity: Number(l.quantity) / 1000 }));
            const order = { id, lines };
            const started = performance.now();
            await receive(contextFor(services, "/api/v1/zhhq/purchse/receive", {}), order as never, order);
            ms.push(Math.round((performance.now() - started) * 10) / 10);
          }
          return answer(200, { ms });
        }
        if (req.url === "/generate") {
          const ms: number[] = [];
          for (const month of body.months as string[]) {
            const ctx = contextFor(services, "/api/v1/zhhq/warehouseAccountMonthSettle/generate", {});
            const started = performance.now();
            await idempotent(ctx, { month }, (trx) => closingWork.generateMonth(trx as never, ctx, month));
            ms.push(Math.round((performance.now() - started) * 10) / 10);
          }
          return answer(200, { ms });
        }
        if (req.url === "/floor") {
          const ms: number[] = [];
          for (const id of body.ids as number[]) {
            const started = performance.now();
            await step(entity, name, Number(id), {});
            ms.push(Math.round((performance.now() - started) * 10) / 10);
          }
          return answer(200, { ms });
        }
        answer(404, { status: 404 });
      } catch (error) {
        answer(500, { status: 500, message: String(error) });
      }
    })();
  });
  server.listen(port, "127.0.0.1");
  return server;
}
