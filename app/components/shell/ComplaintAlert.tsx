import { useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { Deferred } from "~/components/Deferred";
import { loadNotifications, notificationsWanted, useStore } from "~/lib/feedback";
import { request, RequestError } from "~/lib/request";
import { lazyPart } from "~/lib/lazy-part";

export const COMPLAINT_POLL_MS = 300_000;
export const COMPLAINTS_PATH = "/zhct/mealordercomplaints/index?status=0";
const NOTIFIED_KEY = "complaintsNotifiedAt";
/** The count's permission: `permissionCode(mealOrderComplaints, "view")`, spelled out so the shell loads no declaration. */
export const COMPLAINTS_VIEW = "zhct:mealOrderComplaints:view";

const ComplaintContainer = lazyPart(() => import("./ComplaintNotices").then((m) => ({ default: m.ComplaintContainer })));

/** The alerts' container and code come with the first alert (see `loadNotifications`). */
const loadComplaintNotices = async () => {
  const [{ notifications }, { complaintStore }] = await Promise.all([loadNotifications(), import("./ComplaintNotices")]);
  return { notifications, complaintStore };
};

export function ComplaintNotifications() {
  const wanted = useStore(notificationsWanted, false);
  return (
    <Deferred when={wanted}>
      <ComplaintContainer />
    </Deferred>
  );
}

/**
 * Spec §2/§4/§8: asks for the count when the shell appears and every five minutes, only when `allowed` (the user may
 * read complaints and need not change the password first: else the answer is a 403 no user caused); notifies only when the count
 * is not "0" and the newest complaint is later than the last one notified. A failed fetch clears the alerts and
 * says why; a status other than 200 is ignored.
 */
export function useComplaintAlert(userId: number, allowed: boolean) {
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  useEffect(() => {
    if (!allowed) return;
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
        const { notifications, complaintStore } = await loadComplaintNotices();
        if (stopped) return;
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
        const { notifications, complaintStore } = await loadComplaintNotices();
        if (stopped) return;
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
  }, [userId, allowed]);
}
