import type { ResourceService } from "../resource/engine";
import { masterServices } from "./master";

/** The rules of the logistics entities, by resource key. */
export const zhhqServices: Record<string, ResourceService> = {
  ...masterServices,
};
