import { resourceKey } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import type { Endpoint } from "../../http/endpoint";
import type { ServerModule } from "../manifest";
import { documentEndpoints } from "./documents";
import { resourceEndpoints } from "./endpoints";

/**
 * The generated actions of a module's declared resources, each with its module's service where it has one, and of
 * its documents, each with its rules (guards, effects, ledgers).
 */
export function generatedEndpoints(module: ServerModule): Endpoint[] {
  return [
    ...module.declaration.resources.flatMap((def) => resourceEndpoints(def, findResource, module.services[resourceKey(def)])),
    ...(module.declaration.documents ?? []).flatMap((doc) => documentEndpoints(doc, module.documentRules[doc.docType])),
  ];
}
