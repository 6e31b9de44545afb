import { resourceKey } from "../../../resources/define";
import { documents, findResource, resources } from "../../../resources/index";
import type { Endpoint } from "../../http/endpoint";
import type { ResourceService } from "./engine";
import { resourceEndpoints } from "./endpoints";
import { documentEndpoints } from "./documents";
import type { DocumentRules } from "../../kernel/transitions";
import { mealOrderComplaintsService } from "../zhct/mealOrderComplaints";
import { orgService } from "../auth/org";
import { orgDiscountService } from "../auth/orgDiscount";
import { roleService } from "../auth/role";
import { userService } from "../auth/user";
import { tenantService } from "../sys/tenant";
import { sysServices } from "../sys/services";
import { zhctServices } from "../zhct/services";
import { zhhqServices } from "../zhhq/services";

/** Entities with rules of their own register their service here; the rest use the generic path alone. */
const services: Record<string, ResourceService> = {
  "sys/tenant": tenantService,
  ...sysServices,
  "auth/org": orgService,
  "auth/user": userService,
  "auth/role": roleService,
  "auth/orgDiscount": orgDiscountService,
  "zhct/mealOrderComplaints": mealOrderComplaintsService,
  ...zhctServices,
  ...zhhqServices,
};

export function allResourceEndpoints(): Endpoint[] {
  return resources.flatMap((def) => resourceEndpoints(def, findResource, services[resourceKey(def)]));
}

/** A document's guards, effects and ledgers by its key (`module/entity`); one without rules has none of them. */
const documentRules: Record<string, DocumentRules> = {};

export function allDocumentEndpoints(): Endpoint[] {
  return documents.flatMap((doc) => documentEndpoints(doc, documentRules[doc.docType]));
}
