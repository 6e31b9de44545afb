import { getDefaultZIndex } from "@mantine/core";
import { Notifications, createNotificationsStore } from "@mantine/notifications";
import classes from "./complaints.module.css";

/**
 * The complaint alerts have a container of their own: 44 px from the top, never closing by themselves. They sit
 * above the header and modals but just below dropdowns: an alert that stays until clicked must not cover the user
 * menu or a select that somebody has just opened in the top-right corner.
 */
export const complaintStore = createNotificationsStore();

export function ComplaintContainer() {
  return <Notifications store={complaintStore} position="top-right" autoClose={false} classNames={{ root: classes.root }} zIndex={getDefaultZIndex("popover") - 1} />;
}
