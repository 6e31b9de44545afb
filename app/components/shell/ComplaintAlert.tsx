import { getDefaultZIndex } from "@mantine/core";
import { Notifications, createNotificationsStore, notifications } from "@mantine/notifications";
import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { request, RequestError } from "~/lib/request";
import classes from "./complaints.module.css";

export const COMPLAINT_POLL_MS = 300_000;
export const COMPLAINTS_PATH = "/zhct/mealordercomplaints/index?status=0";
const NOTIFIED_KEY = "complaintsNotifiedAt";

/**
 * The complaint alerts have a container of their own: 44 px from the top, never closing by themselves. They sit
 * above the header and modals but just below dropdowns: an alert that stays until clicked must not cover the user
 * menu or a select that somebody has just opened in the top-right corner.
 */
export const complaintStore = createNotificationsStore();

export function ComplaintNotifications() {
  return <Notifications store={complaintStore} position="top-right" autoClose={false} classNames={{ root: classes.root }} zIndex={getDefaultZIndex("popover") - 1} />;
}

/**
 * Spec §2/§4/§8: asks for the count when the shell appears and every five minutes; notifies only when the count
 * is not "0" and the newest complaint is later than the last one notified. A failed fetch clears the alerts and
 * says why; a status other than 200 is ignored.
 */
export function useComplaintAlert(userId: number) {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  useEffect(() => {
    const key = `${NOTIFIED_KEY}:${userId}`;
    let stopped = false;
    async function poll() {
      try {
        const { complaintsCount, maxCreatedTime } = await request<{ complaintsCount: string; maxCreatedTime: number | null }>(
          "GET",
          "/api/v1/zhct/mealOrderComplaints/getComplaintsCount",
          { loading: false, quiet: true },
        );
        if (stopped) return;
        const last = Number(window.localStorage.getItem(key) ?? 0);
        if (complaintsCount === "0" || maxCreatedTime === null || Number(maxCreatedTime) <= last) return;
        window.localStorage.setItem(key, String(maxCreatedTime));
        notifications.show(
          {
            id: `complaints-${maxCreatedTime}`,
            title: "订餐申诉提醒",
            message: `您有 ${complaintsCount} 条未处理的订餐申诉，点击查看`,
            color: "orange",
            autoClose: false,
            style: { cursor: "pointer" },
            "data-testid": "complaint-notification",
            onClick: () => {
              notifications.clean(complaintStore);
              navigateRef.current(COMPLAINTS_PATH);
            },
          },
          complaintStore,
        );
      } catch (error) {
        if (stopped || (error instanceof RequestError && error.kind === "status")) return;
        notifications.clean(complaintStore);
        notifications.show(
          {
            title: "错误",
            message: `获取数据出错：${error instanceof Error ? error.message : String(error)}`,
            color: "red",
            autoClose: false,
            "data-testid": "complaint-error",
          },
          complaintStore,
        );
      }
    }
    poll();
    const timer = setInterval(poll, COMPLAINT_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [userId]);
}
