import type { SessionContext } from "../../http/endpoint";
import { ApiError, Status } from "../../http/envelope";
import type { ResourceService } from "../resource/engine";
import { sysMessages } from "./messages";

export const subsystemService: ResourceService = {
  async beforeDelete(ctx: SessionContext, current) {
    const menu = await ctx.services.db.selectFrom("menu").select("id").where("subsystem_id", "=", current.id as number).limit(1).executeTakeFirst();
    if (menu) throw new ApiError(Status.CONFLICT, sysMessages.subsystem.hasMenus);
  },
};
