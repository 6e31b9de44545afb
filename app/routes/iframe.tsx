import { Alert, Box } from "@mantine/core";
import { data } from "react-router";
import type { Route } from "./+types/iframe";
import { apiCall } from "~/lib/api.server";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";

/** Spec §2 `/iframe/reportview?url=…`: embeds a page of this site, or of a host the administrator allowed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const url = new URL(request.url).searchParams.get("url") ?? "";
  const result = await apiCall<{ src: string }>(request, context, "GET", "/api/v1/sys/iframe/resolve", { query: { url } });
  if (result.status !== 200) return data({ src: null, error: result.message || "Error" }, { status: 400 });
  return { src: result.data.src, error: null };
}

export function meta() {
  return [{ title: `报表 - ${t.appTitle}` }];
}

export default function IframeReport({ loaderData }: Route.ComponentProps) {
  if (!loaderData.src) {
    return (
      <Alert color="red" variant="light" title="无法打开" data-testid="iframe-error">
        {loaderData.error}
      </Alert>
    );
  }
  return (
    <Box bg="white" style={{ borderRadius: 4, overflow: "hidden", boxShadow: "0 1px 4px rgba(0,21,41,.08)" }}>
      <iframe
        src={loaderData.src}
        title="报表"
        data-testid="report-iframe"
        style={{ display: "block", width: "100%", height: "calc(100vh - 140px)", border: 0 }}
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-downloads"
      />
    </Box>
  );
}
