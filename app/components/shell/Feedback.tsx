import { ActionIcon, Indicator, Loader, Portal, Stack, Text, Tooltip } from "@mantine/core";
import { IconBug } from "~/components/icons";
import { useEffect, useState } from "react";
import { useNavigation } from "react-router";
import { errorLog, errorLogEnvironments, logoutConfirm, pendingRequests, recordError, useStore } from "~/lib/feedback";
import { t } from "~/lib/messages";
import { Deferred } from "~/components/Deferred";
import { lazyPart } from "~/lib/lazy-part";

const LogoutDialog = lazyPart(() => import("./FeedbackDialogs").then((m) => ({ default: m.LogoutDialog })));
const ErrorLogDialog = lazyPart(() => import("./FeedbackDialogs").then((m) => ({ default: m.ErrorLogDialog })));

/** A load shorter than this shows no mask, so fast pages do not flash. */
export const MASK_DELAY_MS = 500;

/** Spec §7: the full-screen 数据加载中 mask for page loads, submissions and requests that do not opt out. */
export function LoadingMask() {
  const navigation = useNavigation();
  const pending = useStore(pendingRequests, 0);
  const silent = (navigation.location?.state as { silent?: boolean } | null)?.silent === true || navigation.formData?.get("_silent") === "1";
  const busy = (navigation.state !== "idle" && !silent) || pending > 0;
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!busy) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), MASK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [busy]);
  if (!shown) return null;
  return (
    <Portal>
      <div
        role="status"
        aria-live="polite"
        data-testid="loading-mask"
        style={{ position: "fixed", inset: 0, zIndex: 2000, background: "rgba(255,255,255,.65)", display: "flex", alignItems: "center", justifyContent: "center" }}
      >
        <Stack align="center" gap={8}>
          <Loader size="md" />
          <Text size="sm" c="brand.6">
            {t.loading}
          </Text>
        </Stack>
      </div>
    </Portal>
  );
}

/** Spec §8: after 50008/50012/50014 the user may sign in again (token cleared, page reloaded) or stay. */
export function LogoutConfirm() {
  const state = useStore(logoutConfirm, { open: false, message: "" });
  const close = () => logoutConfirm.set({ open: false, message: "" });
  return (
    <Deferred when={state.open}>
      <LogoutDialog opened={state.open} onClose={close} />
    </Deferred>
  );
}

/** Keeps unhandled errors of the page in memory (spec §8) and shows them behind a bug icon. */
export function ErrorLog() {
  const entries = useStore(errorLog, []);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (!errorLogEnvironments.includes(import.meta.env.MODE)) return;
    const onError = (event: ErrorEvent) => recordError(event.error ?? event.message, window.location.pathname + window.location.search);
    const onRejection = (event: PromiseRejectionEvent) => recordError(event.reason, window.location.pathname + window.location.search);
    window.addEventListener("error", onError);
    window.addEventListener("unhandledrejection", onRejection);
    return () => {
      window.removeEventListener("error", onError);
      window.removeEventListener("unhandledrejection", onRejection);
    };
  }, []);
  if (entries.length === 0) return null;
  return (
    <>
      <Tooltip label="错误日志">
        <Indicator label={entries.length} size={16} color="red" offset={4}>
          <ActionIcon variant="subtle" color="red" size="lg" aria-label="错误日志" onClick={() => setOpened(true)} data-testid="error-log-button">
            <IconBug size={20} />
          </ActionIcon>
        </Indicator>
      </Tooltip>
      <Deferred when={opened}>
        <ErrorLogDialog opened={opened} onClose={() => setOpened(false)} entries={entries} />
      </Deferred>
    </>
  );
}
