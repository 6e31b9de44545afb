import { resourceKey } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import type { Endpoint } from "../../http/endpoint";
import type { ServerModule } from "../manifest";
import { resourceEndpoints } from "./endpoints";

/** The generated actions of a module's declared resources, each with its module's service where it has one. */
export function generatedEndpoints(module: ServerModule): Endpoint[] {
  return module.declaration.resources.flatMap((def) => resourceEndpoints(def, findResource, module.services[resourceKey(def)]));
}
