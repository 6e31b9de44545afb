import { resourceKey } from "../../../resources/define";
import { food } from "../../../resources/zhct/catalogue";
import { mealOrderComplaints } from "../../../resources/zhct/mealOrderComplaints";
import { zhctModule } from "../../../resources/zhct/module";
import type { ServerModule } from "../manifest";
import { foodMenu, foodMenuItem, foodMenuTemplate, foodMenuType, foodMenuTypeTemplate, mealTimes } from "../../../resources/zhct/menus";
import { foodService, mealTimesService, menuTypeService } from "./catalogue";
import { settingsServices } from "./settings";
import { topUpChannel, userIcCard, userInfo } from "../../../resources/zhct/ledger";
import { accountEndpoints, topUpChannelService, userIcCardService, userInfoService } from "./accounts";
import { autoChargeSetting } from "../../../resources/zhct/settle";
import { autoChargeEndpoints, autoChargeService } from "./autoCharge";
import { foodMenuItemService, foodMenuService, foodMenuTemplateService, menuEndpoints } from "./menus";
import { payTypePaymentHooks, payTypeServices } from "./payTypes";
import { ticketEndpoints, ticketPaymentHooks, ticketServices } from "./tickets";
import { roomEndpoints, roomPaymentHooks, roomServices } from "./rooms";
import { defaultOrderEndpoints, defaultOrderServices } from "./defaultOrders";
import { deliveryPaymentHooks, deliveryServices } from "./delivery";
import { bookingEndpoints, bookingPaymentHooks, bookingServices } from "./bookings";
import { recognitionEndpoints, recognitionServices } from "./recognition";
import { cashierEndpoints } from "./cashier";
import { cashierReportEndpoints } from "./cashierReport";
import { mealOrderComplaintsService } from "./mealOrderComplaints";
import { monthSettleEndpoints } from "./monthSettle";
import { outboxEndpoints } from "./outbox";
import { paymentEndpoints } from "./payments";
import { pointsEndpoints, pointsLedger, pointsPaymentHooks } from "./points";
import { moneyLedger } from "./ledger";
import { reportEndpoints } from "./reports";
import { recipeEndpoints } from "./recipes";
import { surveyEndpoints } from "./surveys";

/** 智慧餐厅 on the server (decision 062). */
export const zhctManifest: ServerModule = {
  declaration: zhctModule,
  /** The rules of the canteen entities, by resource key. */
  services: {
    [resourceKey(food)]: foodService,
    [resourceKey(mealTimes)]: mealTimesService,
    [resourceKey(foodMenuType)]: menuTypeService(foodMenuType),
    [resourceKey(foodMenuTypeTemplate)]: menuTypeService(foodMenuTypeTemplate),
    [resourceKey(foodMenu)]: foodMenuService,
    [resourceKey(foodMenuItem)]: foodMenuItemService,
    [resourceKey(foodMenuTemplate)]: foodMenuTemplateService,
    [resourceKey(userInfo)]: userInfoService,
    [resourceKey(userIcCard)]: userIcCardService,
    [resourceKey(topUpChannel)]: topUpChannelService,
    [resourceKey(autoChargeSetting)]: autoChargeService,
    ...settingsServices,
    ...payTypeServices,
    ...ticketServices,
    ...roomServices,
    ...defaultOrderServices,
    ...deliveryServices,
    ...bookingServices,
    ...recognitionServices,
    [resourceKey(mealOrderComplaints)]: mealOrderComplaintsService,
  },
  endpoints: [
    ...menuEndpoints, ...outboxEndpoints, ...accountEndpoints, ...autoChargeEndpoints, ...monthSettleEndpoints, ...reportEndpoints,
    ...paymentEndpoints, ...ticketEndpoints, ...roomEndpoints, ...pointsEndpoints, ...cashierEndpoints, ...cashierReportEndpoints,
    ...defaultOrderEndpoints, ...bookingEndpoints, ...recognitionEndpoints, ...surveyEndpoints, ...recipeEndpoints,
  ],
  documentRules: {},
  ledgers: [moneyLedger, pointsLedger],
  /**
   * In this order: a disabled payment method is refused before anything is taken; a ticket pays before the ledger
   * would; plates and tables are released, the delivery slot and the booking's quota taken; points are earned last,
   * on what was paid. (Before decision 062 the order was the files' import order, and tests and the server differed.)
   */
  paymentHooks: [payTypePaymentHooks, ticketPaymentHooks, roomPaymentHooks, deliveryPaymentHooks, bookingPaymentHooks, pointsPaymentHooks],
};
