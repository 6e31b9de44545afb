import type { ResourceService } from "../resource/engine";

/** Marking an exception handled records who and when; reopening it clears both. */
export const exceptionInfoService: ResourceService = {
  beforeCreate(ctx, values) {
    const handled = String(values.handled) === "1";
    values.handledAt = handled ? ctx.now : null;
    values.handlerName = handled ? ctx.session.userName : null;
  },
  beforeUpdate(ctx, values, current) {
    if (values.handled === undefined || String(values.handled) === String(current.handled)) return;
    const handled = String(values.handled) === "1";
    values.handledAt = handled ? ctx.now : null;
    values.handlerName = handled ? ctx.session.userName : null;
  },
};
