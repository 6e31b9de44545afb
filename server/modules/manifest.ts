import type { ModuleDeclaration } from "../../resources/modules";
import type { Endpoint } from "../http/endpoint";
import type { Ledger } from "../kernel/ledger";
import type { DocumentRules } from "../kernel/transitions";
import type { ResourceService } from "./resource/engine";
import type { PaymentHooks } from "./zhct/payments";

/**
 * What one module adds to the server, from one file (`server/modules/<name>/manifest.ts`, decision 062). Nothing
 * here registers itself: the API is composed from the list of these (server/modules/index.ts), in its order.
 */
export interface ServerModule {
  /** The half both floors read: resources, reports, menu groups, screens (resources/<name>/module.ts). */
  declaration: ModuleDeclaration;
  /** The rules of its entities with rules of their own, by resource key; the rest use the generic path alone. */
  services: Readonly<Record<string, ResourceService>>;
  /** Its hand-written endpoints. */
  endpoints: readonly Endpoint[];
  /** The server side of its documents (guards, effects, the ledgers their postings name), by document type. */
  documentRules: Readonly<Record<string, DocumentRules>>;
  /** Its ledgers (decision 059): what the ledger check (`npm run ledger:check`) and the migrations' recounts read. */
  ledgers: readonly Ledger[];
  /** Its parts in a payment, in the order they run; modules' hooks run in the modules' order. */
  paymentHooks: readonly PaymentHooks[];
}

/** Every module's hooks, in the order written: the modules' order, then each manifest's. */
export function paymentHooksOf(modules: readonly ServerModule[]): PaymentHooks[] {
  return modules.flatMap((m) => m.paymentHooks);
}

/**
 * The endpoints of the modules: hand-written ones, and the actions generated from each declared resource. A method
 * and path claimed twice stops the start, naming both; a hand-written endpoint takes a generated action's place only
 * when it says so (`replacesGenerated`), and saying so where there is nothing to replace stops the start too.
 */
export function moduleEndpoints(modules: readonly ServerModule[], generate: (module: ServerModule) => Endpoint[]): Endpoint[] {
  const routeOf = (e: Endpoint) => `${e.method} ${e.path}`;
  const generated = new Map<string, { endpoint: Endpoint; module: string }>();
  for (const module of modules) {
    for (const endpoint of generate(module)) {
      const before = generated.get(routeOf(endpoint));
      if (before) throw new Error(`接口 ${routeOf(endpoint)} 注册了两次：模块 ${before.module} 与 ${module.declaration.name} 的声明都生成了它`);
      generated.set(routeOf(endpoint), { endpoint, module: module.declaration.name });
    }
  }
  const written = new Map<string, string>();
  for (const module of modules) {
    for (const endpoint of module.endpoints) {
      const route = routeOf(endpoint);
      const before = written.get(route);
      if (before) throw new Error(`接口 ${route} 注册了两次：模块 ${before} 与 ${module.declaration.name}`);
      written.set(route, module.declaration.name);
      const replaced = generated.get(route);
      if (replaced && !endpoint.replacesGenerated) {
        throw new Error(`接口 ${route} 注册了两次：模块 ${module.declaration.name} 手写的与模块 ${replaced.module} 生成的；手写的要替换生成的，须声明 replacesGenerated`);
      }
      if (!replaced && endpoint.replacesGenerated) throw new Error(`接口 ${route}（模块 ${module.declaration.name}）声明替换生成的接口，但没有这样的接口`);
    }
  }
  return [
    ...modules.flatMap((m) => m.endpoints),
    ...[...generated.entries()].filter(([route]) => !written.has(route)).map(([, { endpoint }]) => endpoint),
  ];
}
