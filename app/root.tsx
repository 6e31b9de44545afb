import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "./mantine-classes.css";
import { Button, Center, MantineProvider, Stack, Text, Title, mantineHtmlProps } from "@mantine/core";
import { useEffect } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, data, isRouteErrorResponse, redirect, useMatches, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { Deferred } from "./components/Deferred";
import { notificationsWanted, useStore } from "./lib/feedback";
import { t } from "./lib/messages";
import { useNonce } from "./lib/nonce";
import { PUBLIC_PATHS, hasTokenCookie, readFlash, requireUserInfo } from "./lib/session.server";
import { SHELL_DATA_PATH } from "./lib/shell-data";
import { pageUser } from "./lib/shell-data.server";
import { canteenCssVariables, canteenTheme, themeStylesheetOf } from "./lib/theme";
import { exchangeTicket } from "./lib/ticket.server";
import { defaultSettings } from "../resources/auth";
import { lazyPart } from "./lib/lazy-part";

export async function loader({ request, context }: Route.LoaderArgs) {
  await exchangeTicket(request, context);
  const { pathname } = new URL(request.url);
  if (pathname === "/login" && hasTokenCookie(request)) throw redirect("/");
  if (PUBLIC_PATHS.has(pathname) && !hasTokenCookie(request)) return { user: null, flash: null };
  const user = pageUser(await requireUserInfo(request, context), context);
  // The sign-in page reads its own flash; elsewhere the shell shows it once.
  const flash = readFlash(request);
  return data({ user, flash: flash.message }, flash.clear ? { headers: { "Set-Cookie": flash.clear } } : undefined);
}

const Notifications = lazyPart(() => import("@mantine/notifications").then((m) => ({ default: m.Notifications })));

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const wantNotifications = useStore(notificationsWanted, false);
  const data = useRouteLoaderData<typeof loader>("root");
  const settings = data?.user?.settings ?? defaultSettings;
  // A route may declare `handle.hydrate = false`: its document load is the server's HTML alone (the sign-in page).
  const hydrate = !useMatches().some((match) => (match.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
  return (
    <html lang="zh-CN" {...mantineHtmlProps}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
        {/* The theme's CSS variables, which MantineProvider would otherwise write into every page; after Mantine's
            stylesheet, whose defaults they override. */}
        <link rel="stylesheet" href={themeStylesheetOf(settings.theme).href} />
        {/* `entry.client` fetches it while the page's scripts load, so hydration does not wait a round trip more. */}
        {data?.user && <meta name="shell-data" content={`${SHELL_DATA_PATH}${data.user.shellVersion}`} />}
      </head>
      <body>
        <MantineProvider theme={canteenTheme(settings.theme)} cssVariablesResolver={canteenCssVariables} withCssVariables={false} withStaticClasses={false} withGlobalClasses={false} defaultColorScheme="light" forceColorScheme="light" getStyleNonce={() => nonce ?? ""}>
          <Deferred when={wantNotifications}>
            <Notifications position="top-right" />
          </Deferred>
          {children}
        </MantineProvider>
        {hydrate && <ScrollRestoration nonce={nonce} />}
        {hydrate && <Scripts nonce={nonce} />}
      </body>
    </html>
  );
}

export default function App() {
  // Marks the document once React has taken over the server's HTML: a control used before that works as plain HTML
  // only (a picker does not open, a tick does not cascade), which browser tests must wait out.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

export function meta() {
  return [{ title: t.appTitle }];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const title = notFound ? t.shell.notFound : t.hasError;
  const text = notFound ? t.shell.notFoundText : "页面出错了，请稍后重试。";
  return (
    <Center mih="100vh">
      <Stack align="center" gap="sm">
        <Title order={1} c="dimmed" fz={64}>
          {notFound ? 404 : 500}
        </Title>
        <Title order={3}>{title}</Title>
        <Text c="dimmed">{text}</Text>
        <Button component="a" href="/">
          {t.shell.backHome}
        </Button>
      </Stack>
    </Center>
  );
}
