import type { Endpoint } from "../../http/endpoint";

export const cashierReportEndpoints: Endpoint[] = [];
