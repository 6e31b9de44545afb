import type { ModuleDeclaration } from "../modules";
import { mealOrderComplaints } from "./mealOrderComplaints";
import { bowls, deviceFood, food, foodNutrition, foodRecipe, foodType } from "./catalogue";
import { userInfoSendMessage } from "./messages";
import { integralStrategy, merchantDivide, onlinePayRule, payLimitConfig } from "./settings";
import { topUpChannel, userAccount, userAccountCharge, userAccountLedger, userIcCard, userInfo } from "./ledger";
import { autoChargeGrant, autoChargeRun, autoChargeSetting, chargeDailyReport, userAccountMonthClose, userAccountMonthSettle, userInfoDept } from "./settle";
import { cashierMealOrder, mealOrder, mealOrderItem } from "./orders";
import { payType, userAccountIntegralDetail, userIntegralAccount } from "./points";
import { cashier, cashierPrint } from "./cashier";
import { mealRecovery, mealTicket, mealTicketSetting, mealTicketUse } from "./tickets";
import { appointmentDetail, appointmentDetailForOrder, appointmentPeriod, orderingFood, orderingPlan } from "./bookings";
import { room, roomReservation, userAccountTable, userPlate } from "./rooms";
import { deliveryPoint, deliveryTime, mealOrderDelivery, userOrderDefault, userOrderDefaultGenerate, userOrderDefaultGenerateDetail, userOrderDefaultLeave, userOrderDefaultPc } from "./defaults";
import { imageDetectFood, imageDetectLog, imageLibrary, mealOrderImageDetail, satisfactionSurve, satisfactionSurveAnswer, satisfactionSurveAnswerItem, satisfactionSurveOption, satisfactionSurveQuestion, satisfactionSurveStatics } from "./surveys";
import { foodMenu, foodMenuBowls, foodMenuItem, foodMenuTemplate, foodMenuType, foodMenuTypeTemplate, mealTimes } from "./menus";

/** The canteen's tables, declared once: their migrations are written from these and their row types derived (decision 014). */
export const zhctResources = [
  bowls, foodType, food, foodNutrition, foodRecipe, foodMenuBowls, deviceFood,
  mealTimes, foodMenuType, foodMenuTypeTemplate, foodMenu, foodMenuItem, foodMenuTemplate,
  userInfo, userAccount, topUpChannel, userAccountLedger, userAccountCharge, userIcCard,
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

/** 智慧餐厅: the catalogue, menus, diners and their money, orders, bookings, rooms, surveys. */
export const zhctModule = {
  name: "zhct",
  resources: [...zhctResources, mealOrderComplaints, cashierMealOrder],
  reports: [chargeDailyReport, userInfoDept, cashier, cashierPrint, satisfactionSurveStatics],
  monthSettles: [userAccountMonthClose],
} satisfies ModuleDeclaration<"zhct">;
