import type { Endpoint } from "../http/endpoint";
import { settingsEndpoints } from "./auth/settings";
import { ticketEndpoints } from "./auth/ticket";
import { imageObjEndpoints } from "./sys/imageObj";
import { complaintEndpoints } from "./zhct/mealOrderComplaints";

/** What the shell calls besides sign-in: settings, profile, tickets, the logo, iframes and the complaint workflow. */
export const shellEndpoints: Endpoint[] = [...settingsEndpoints, ...ticketEndpoints, ...imageObjEndpoints, ...complaintEndpoints];
