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
 *                                    answers {ms: [...], cpu: [...]} (cpu: this process's CPU milliseconds, user and
 *                                    system, which a loaded machine inflates far less than the wall clock)
 *   POST /cpu {}                     this process's CPU time so far, {us}: read before and after an API request, the
 *                                    request's own CPU time (the bench makes one request at a time)
 *   POST /receive {ids}              each approved purchase order received whole, as `purchse/receive` does (decision
 *                                    072), timed alike; answers {ms: [...], cpu: [...]}
 *   POST /generate {months}          生成 of each month in turn, as `warehouseAccountMonthSettle/generate` does
 *                                    (scripts/bench/scenarios/closing.mjs), timed alike; answers {ms: [...], cpu: [...]}
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

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** Each of `items` worked in turn, timed around the call: wall and CPU milliseconds. */
async function timedEach<T>(items: readonly T[], work: (item: T) => Promise<unknown>): Promise<{ ms: number[]; cpu: number[] }> {
  const ms: number[] = [];
  const cpu: number[] = [];
  for (const item of items) {
    const cpuBefore = cpuUs();
    const started = performance.now();
    await work(item);
    ms.push(Math.round((performance.now() - started) * 10) / 10);
    cpu.push(Math.round((cpuUs() - cpuBefore) / 100) / 10);
  }
  return { ms, cpu };
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
        if (req.url === "/cpu") return answer(200, { us: cpuUs() });
        if (req.url === "/receive") {
          const orders = [];
          for (const id of body.ids as number[]) {
            const lines = (await loadLines(services.db, purchse, TENANT, id)).map((l) => ({ purchseLineId: Number(l.id), quantity: Number(l.quantity) / 1000 }));
            orders.push({ id, lines });
          }
          return answer(200, await timedEach(orders, (order) => receive(contextFor(services, "/api/v1/zhhq/purchse/receive", {}), order as never, order)));
        }
        if (req.url === "/generate") {
          return answer(
            200,
            await timedEach(body.months as string[], (month) => {
              const ctx = contextFor(services, "/api/v1/zhhq/warehouseAccountMonthSettle/generate", {});
              return idempotent(ctx, { month }, (trx) => closingWork.generateMonth(trx as never, ctx, month));
            }),
          );
        }
        if (req.url === "/floor") return answer(200, await timedEach(body.ids as number[], (id) => step(entity, name, Number(id), {})));
        answer(404, { status: 404 });
      } catch (error) {
        answer(500, { status: 500, message: String(error) });
      }
    })();
  });
  server.listen(port, "127.0.0.1");
  return server;
}
