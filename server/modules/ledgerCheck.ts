import { documents } from "../../resources/index";
import type { AnyDb, LedgerDrift } from "../kernel/ledger";
import { keptTotalDrifts } from "../kernel/transitions";
import type { ServerModule } from "./manifest";

export interface LedgerCheck {
  ledger: string;
  drifts: LedgerDrift[];
}

/**
 * Every declared ledger's balances against the sums of their lines (the modules' manifests name them), and every
 * document header's kept sums against its lines' (`lines.keptTotals`, decision 094: a report reads those as the
 * lines' figures): what an operator runs after a crash, a restore or a hand edit of the database
 * (`npm run ledger:check`). Empty drifts everywhere is the only healthy answer.
 */
export async function checkLedgers(db: AnyDb, modules: readonly ServerModule[], tenantId?: number): Promise<LedgerCheck[]> {
  const checks: LedgerCheck[] = [];
  for (const ledger of modules.flatMap((m) => m.ledgers)) checks.push({ ledger: ledger.declaration.name, drifts: await ledger.check(db, tenantId) });
  for (const doc of documents.filter((d) => d.keptTotals.length)) {
    const measure = (field: string) => (doc.keptTotals.find((k) => k.header.name === field)?.line.type === "quantity" ? "quantity" : "amount");
    const drifts = await keptTotalDrifts(db, doc, tenantId);
    checks.push({ ledger: `${doc.title}表头合计`, drifts: drifts.map((d) => ({ tenantId: d.tenantId, key: { documentId: d.id }, measure: measure(d.field), balance: d.kept, lines: d.lines })) });
  }
  return checks;
}

/** One drift in words, for the operator's terminal. */
export function describeDrift(ledger: string, drift: LedgerDrift): string {
  const key = Object.entries(drift.key)
    .map(([name, value]) => `${name}=${value}`)
    .join(", ");
  const measure = drift.measure === "quantity" ? "数量" : "金额";
  return `账本 ${ledger}：租户 ${drift.tenantId}（${key}）${measure}余额 ${drift.balance}，流水合计 ${drift.lines}，相差 ${drift.balance - drift.lines}`;
}
