import { fieldError } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import { sysMessages } from "./messages";
import { formatInstant } from "./rules";

const m = sysMessages.iccard;
/** Mifare Classic 4K, the largest card the readers take, has sectors 0–39. */
const MAX_SECTOR = 39;

function sectorsValid(sectors: string): boolean {
  return sectors.split(",").every((range) => {
    const [from, to = from] = range.split("-").map(Number);
    return from <= to && to <= MAX_SECTOR;
  });
}

/**
 * An initialisation is logged once it happened: the serial is stored in upper case, the operator and time are the
 * caller's, and a card initialised in the tenant already is refused (its log row says when).
 */
export const iccardInitService: ResourceService = {
  async beforeCreate(ctx, values) {
    values.cardSerial = String(values.cardSerial).toUpperCase();
    if (!sectorsValid(String(values.sectors))) throw fieldError("sectors", m.sectorRange);
    if (String(values.result) !== "1" && !values.message) throw fieldError("message", m.reasonRequired);
    const done = await ctx.services.db
      .selectFrom("iccard_init")
      .select("initialized_at")
      .where("tenant_id", "=", ctx.session.tenantId)
      .where("card_serial", "=", values.cardSerial as string)
      .where("result", "=", 1)
      .executeTakeFirst();
    if (done) throw fieldError("cardSerial", m.initialised(formatInstant(done.initialized_at)));
    values.operatorName = ctx.session.userName;
    values.initializedAt = ctx.now;
  },
};
