import { resourceKey } from "../../../resources/define";
import { food } from "../../../resources/zhct/catalogue";
import { foodMenu, foodMenuItem, foodMenuTemplate, foodMenuType, foodMenuTypeTemplate, mealTimes } from "../../../resources/zhct/menus";
import type { ResourceService } from "../resource/engine";
import { foodService, mealTimesService, menuTypeService } from "./catalogue";
import { settingsServices } from "./settings";
import { userIcCard, userInfo } from "../../../resources/zhct/ledger";
import { userIcCardService, userInfoService } from "./accounts";
import { autoChargeSetting } from "../../../resources/zhct/settle";
import { autoChargeService } from "./autoCharge";
import { foodMenuItemService, foodMenuService, foodMenuTemplateService } from "./menus";
import { payTypeServices } from "./payTypes";
import { ticketServices } from "./tickets";
import { roomServices } from "./rooms";
import { defaultOrderServices } from "./defaultOrders";
import { deliveryServices } from "./delivery";
import { bookingServices } from "./bookings";
import { recognitionServices } from "./recognition";

/** The rules of the canteen entities, by resource key. */
export const zhctServices: Record<string, ResourceService> = {
  [resourceKey(food)]: foodService,
  [resourceKey(mealTimes)]: mealTimesService,
  [resourceKey(foodMenuType)]: menuTypeService(foodMenuType),
  [resourceKey(foodMenuTypeTemplate)]: menuTypeService(foodMenuTypeTemplate),
  [resourceKey(foodMenu)]: foodMenuService,
  [resourceKey(foodMenuItem)]: foodMenuItemService,
  [resourceKey(foodMenuTemplate)]: foodMenuTemplateService,
  [resourceKey(userInfo)]: userInfoService,
  [resourceKey(userIcCard)]: userIcCardService,
  [resourceKey(autoChargeSetting)]: autoChargeService,
  ...settingsServices,
  ...payTypeServices,
  ...ticketServices,
  ...roomServices,
  ...defaultOrderServices,
  ...deliveryServices,
  ...bookingServices,
  ...recognitionServices,
};
