import { resourceKey, type ResourceDef } from "./define";
import type { DocumentDef } from "./document";
import { org } from "./auth/org";
import { orgDiscount } from "./auth/orgDiscount";
import { role } from "./auth/role";
import { test } from "./auth/test";
import { user } from "./auth/user";
import { tenant } from "./sys/tenant";
import { imageObj } from "./sys/imageObj";
import { subsystem } from "./sys/subsystem";
import { menu } from "./sys/menu";
import { device } from "./sys/device";
import { appVersion } from "./sys/appVersion";
import { modelVersion } from "./sys/modelVersion";
import { exceptionInfo } from "./sys/exceptionInfo";
import { parameterConfig } from "./sys/parameterConfig";
import { announcement } from "./sys/announcement";
import { dict } from "./sys/dict";
import { dictItem } from "./sys/dictItem";
import { printDevice } from "./sys/printDevice";
import { merchant } from "./sys/merchant";
import { merchantConfig } from "./sys/merchantConfig";
import { merchantOrg } from "./sys/merchantOrg";
import { deviceDetectConfig } from "./sys/deviceDetectConfig";
import { iccardInit } from "./sys/iccardInit";
import { holiday } from "./sys/holiday";
import { operationLog } from "./sys/operationLog";
import { mealOrderComplaints } from "./zhct/mealOrderComplaints";
import { bowls, deviceFood, food, foodNutrition, foodType } from "./zhct/catalogue";
import { userInfoSendMessage } from "./zhct/messages";
import { integralStrategy, merchantDivide, onlinePayRule, payLimitConfig } from "./zhct/settings";
import { userAccount, userAccountCharge, userAccountLedger, userIcCard, userInfo } from "./zhct/ledger";
import { autoChargeGrant, autoChargeRun, autoChargeSetting, chargeDailyReport, userAccountMonthSettle, userInfoDept } from "./zhct/settle";
import { zhhqMasterResources } from "./zhhq/master";
import type { ReportScreen } from "./modules";
import { reports } from "./report/index";
import { bankReconcile } from "./report/bank";
import { cashierMealOrder, mealOrder, mealOrderItem } from "./zhct/orders";
import { payType, userAccountIntegralDetail, userIntegralAccount } from "./zhct/points";
import { cashier, cashierPrint } from "./zhct/cashier";
import { mealRecovery, mealTicket, mealTicketSetting, mealTicketUse } from "./zhct/tickets";
import { appointmentDetail, appointmentDetailForOrder, appointmentPeriod, orderingFood, orderingPlan } from "./zhct/bookings";
import { room, roomReservation, userAccountTable, userPlate } from "./zhct/rooms";
import { deliveryPoint, deliveryTime, mealOrderDelivery, userOrderDefault, userOrderDefaultGenerate, userOrderDefaultGenerateDetail, userOrderDefaultLeave, userOrderDefaultPc } from "./zhct/defaults";
import { imageDetectFood, imageDetectLog, imageLibrary, mealOrderImageDetail, satisfactionSurve, satisfactionSurveAnswer, satisfactionSurveAnswerItem, satisfactionSurveOption, satisfactionSurveQuestion, satisfactionSurveStatics } from "./zhct/surveys";
import { foodMenu, foodMenuBowls, foodMenuItem, foodMenuTemplate, foodMenuType, foodMenuTypeTemplate, mealTimes } from "./zhct/menus";

/** The canteen's tables, declared once: their migrations are written from these and their row types derived (decision 014). */
export const zhctResources = [
  bowls, foodType, food, foodNutrition, foodMenuBowls, deviceFood,
  mealTimes, foodMenuType, foodMenuTypeTemplate, foodMenu, foodMenuItem, foodMenuTemplate,
  userInfo, userAccount, userAccountLedger, userAccountCharge, userIcCard,
  autoChargeSetting, autoChargeRun, autoChargeGrant, userAccountMonthSettle,
  payLimitConfig, onlinePayRule, merchantDivide, integralStrategy, userInfoSendMessage,
  mealOrder, mealOrderItem,
  payType, userIntegralAccount, userAccountIntegralDetail,
  mealTicketSetting, mealTicket, mealTicketUse, mealRecovery,
  appointmentPeriod, appointmentDetail, appointmentDetailForOrder, orderingPlan, orderingFood,
  room, roomReservation, userAccountTable, userPlate,
  userOrderDefault, userOrderDefaultLeave, userOrderDefaultGenerate, userOrderDefaultGenerateDetail, userOrderDefaultPc,
  deliveryPoint, deliveryTime, mealOrderDelivery,
  imageDetectLog, imageDetectFood, mealOrderImageDetail, imageLibrary,
  satisfactionSurve, satisfactionSurveQuestion, satisfactionSurveOption, satisfactionSurveAnswer, satisfactionSurveAnswerItem,
] as const;

/** The logistics module's tables (decision 067). */
export const zhhqResources = [...zhhqMasterResources] as const;

/** Every declared entity. Routes, API endpoints, menus and permission codes are generated from this list. */
export const resources: ResourceDef[] = [
  tenant,
  subsystem,
  menu,
  device,
  appVersion,
  modelVersion,
  exceptionInfo,
  parameterConfig,
  announcement,
  dict,
  dictItem,
  printDevice,
  org, user, role, orgDiscount, test, imageObj,
  merchant,
  merchantConfig,
  merchantOrg,
  deviceDetectConfig,
  iccardInit,
  holiday,
  ...zhctResources,
  ...zhhqResources,
  mealOrderComplaints, operationLog,
  cashierMealOrder];

/**
 * Every declared document (issue 34, decision 060): its API is generated (server/modules/resource/registry.ts), and
 * its header and lines are entities that `findResource` finds, though their screens and API are the document's.
 */
export const documents: DocumentDef[] = [];

const byKey = new Map([...resources, ...documents.flatMap((d) => [d.header, d.lines])].map((r) => [resourceKey(r), r]));

export function findResource(key: string): ResourceDef | undefined {
  return byKey.get(key);
}

/** The resource whose screens live under this path (`/admin/sys/tenant/index` → tenant). */
export function resourceForPath(pathname: string): ResourceDef | undefined {
  return resources.find((r) => pathname === `${r.screenBase}/${r.screen}` || pathname.startsWith(`${r.screenBase}/${r.screen}/`));
}

/** Report screens (no table of their own): menu pages with a view permission. */
export const reportScreens: ReportScreen[] = [chargeDailyReport, userInfoDept,
  cashier, cashierPrint, satisfactionSurveStatics,
  ...reports, bankReconcile];
