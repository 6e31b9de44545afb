import { Alert, AppShell, Box, Breadcrumbs, Image, Menu, Text, UnstyledButton } from "@mantine/core";
import { LiveMenu, LiveTooltip } from "~/lib/hydrated";
import { IconApps, IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconMenu2, IconSettings } from "~/components/icons";
import { useEffect, useMemo, useState } from "react";
import { data, isRouteErrorResponse, Link, Outlet, useLocation, useMatches, useRevalidator, useRouteLoaderData, type ShouldRevalidateFunctionArgs } from "react-router";
import type { MenuNode } from "../../resources/auth";
import type { Route } from "./+types/shell";
import { COMPLAINTS_VIEW, ComplaintNotifications, useComplaintAlert } from "~/components/shell/ComplaintAlert";
import { ErrorLog, LoadingMask, LogoutConfirm } from "~/components/shell/Feedback";
import { MenuIcon } from "~/components/shell/menuIcon";
import type { ShellSettings } from "~/components/shell/SettingsDrawer";
import { Deferred } from "~/components/Deferred";
import { SideMenu } from "~/components/shell/SideMenu";
import { TagsView } from "~/components/shell/TagsView";
import { TopMenu } from "~/components/shell/TopMenu";
import { MenuSearch } from "~/components/shell/MenuSearch";
import { TenantSwitch } from "~/components/shell/TenantSwitch";
import { UserMenu } from "~/components/shell/UserMenu";
import headerClasses from "~/components/shell/header.module.css";
import { StatusPage } from "~/components/StatusPage";
import { apiCall } from "~/lib/api.server";
import { activeSubsystemFor, flatten, menuForPath, pageTitle, routeAllowed, subsystemTree, visibleMenus, type SubsystemInfo } from "~/lib/menus";
import { t } from "~/lib/messages";
import { usePermissions } from "~/lib/permissions";
import { HOME_PATH } from "~/lib/paths";
import { request } from "~/lib/request";
import { hasTokenCookie, PUBLIC_PATHS, requireUserInfo } from "~/lib/session.server";
import { useShellData, type PageUser } from "~/lib/shell-data";
import { readCookieValue, SIDEBAR_COOKIE, SUBSYSTEM_COOKIE, TAGS_COOKIE, writeBrowserCookie, YEAR_SECONDS } from "~/lib/shell-state";
import { isTaggable, openScreenTag, parseTags, screenKey, serializeTags, type Tag } from "~/lib/tags";
import type { loader as rootLoader } from "~/root";
import classes from "./shell.module.css";
import { PlainIconButton } from "~/components/PlainButton";
import { lazyPart } from "~/lib/lazy-part";

// Opened only on request: their code (colour picker, drawers, scroll locking) loads then.
const SettingsDrawer = lazyPart(() => import("~/components/shell/SettingsDrawer").then((m) => ({ default: m.SettingsDrawer })));
const MenuDrawer = lazyPart(() => import("~/components/shell/MenuDrawer").then((m) => ({ default: m.MenuDrawer })));

export const DEFAULT_LOGO = "/logo.svg";
export const HEADER_HEIGHT = 56;
export const TAGS_HEIGHT = 34;
export const SIDEBAR_WIDTH = 210;
export const SIDEBAR_COLLAPSED_WIDTH = 64;

interface ShellInfo {
  subsystems: SubsystemInfo[];
  routeRoles: Array<{ path: string; roles: string[] }>;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (PUBLIC_PATHS.has(url.pathname) && !hasTokenCookie(request)) return null;
  const user = await requireUserInfo(request, context);
  const cookies = request.headers.get("Cookie");
  // Side by side: on PostgreSQL each call waits for its queries, and none needs another's answer.
  const [info, logo, tenantPage] = await Promise.all([
    apiCall<ShellInfo>(request, context, "GET", "/api/v1/auth/user/shellInfo"),
    apiCall<string>(request, context, "GET", "/api/v1/sys/imageObj/findLogoImage"),
    user.superAdmin
      ? apiCall<{ records: Array<{ id: number; tenantName: string }> }>(request, context, "GET", "/api/v1/sys/tenant/findPage", { query: { pageSize: 100, status: "1" } })
      : null,
  ]);
  const { subsystems, routeRoles } = info.status === 200 ? info.data : { subsystems: [], routeRoles: [] };
  // The subsystem's menus come from the shell data the page already has (decision 019), not from another call.
  const subsystemId = activeSubsystemFor(url.pathname, user.menuTreeList, readCookieValue(cookies, SUBSYSTEM_COOKIE), subsystems);
  const forbidden = !routeAllowed(url.pathname, user.roles, routeRoles);
  return data(
    {
      subsystems,
      routeRoles,
      subsystemId,
      subsystemCookie: readCookieValue(cookies, SUBSYSTEM_COOKIE),
      logo: (logo.status === 200 && logo.data) || DEFAULT_LOGO,
      sidebarOpened: readCookieValue(cookies, SIDEBAR_COOKIE) !== "0",
      tags: parseTags(readCookieValue(cookies, TAGS_COOKIE)).map((tag) => tag.path),
      tenants: tenantPage?.status === 200 ? tenantPage.data.records.map((t) => ({ id: t.id, name: t.tenantName })) : [],
    },
    forbidden ? { status: 401 } : undefined,
  );
}

/** What the last load was made for, so a client navigation reloads the menus only when the subsystem changes. */
let loadedFor: { subsystemId: number; allMenus: MenuNode[]; subsystems: SubsystemInfo[] } | null = null;

export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.href === nextUrl.href || !loadedFor) return defaultShouldRevalidate;
  const next = activeSubsystemFor(nextUrl.pathname, loadedFor.allMenus, readCookieValue(document.cookie, SUBSYSTEM_COOKIE), loadedFor.subsystems);
  return next !== loadedFor.subsystemId;
}

const NOT_FOUND_ROUTES = new Set(["catch-all", "not-found", "routes/unauthorized"]);

export default function Shell({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  if (!root?.user || !loaderData) return <Outlet />;
  return <ShellLayout user={root.user} flash={root.flash} shell={loaderData} />;
}

type ShellData = NonNullable<Route.ComponentProps["loaderData"]>;

/** A page that fails to load shows its 401, 404 or error page inside the shell, not instead of it. */
export function ErrorBoundary({ error, loaderData }: Route.ErrorBoundaryProps) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const page =
    status === 401 || status === 403 ? (
      <StatusPage code={401} title={t.shell.unauthorized} text={t.shell.unauthorizedText} />
    ) : status === 404 ? (
      <StatusPage code={404} title={t.shell.notFound} text={t.shell.notFoundText} />
    ) : (
      <StatusPage code={500} title={t.hasError} text="页面出错了，请稍后重试。" />
    );
  if (!root?.user || !loaderData) return page;
  return (
    <ShellLayout user={root.user} flash={null} shell={loaderData as ShellData}>
      {page}
    </ShellLayout>
  );
}

function ShellLayout({ user, flash, shell, children }: { user: PageUser; flash: string | null; shell: ShellData; children?: React.ReactNode }) {
  const location = useLocation();
  const { menuTreeList, screens } = useShellData();
  const menus = useMemo(() => visibleMenus(subsystemTree(menuTreeList, shell.subsystemId)), [menuTreeList, shell.subsystemId]);
  // The menu search finds pages of every subsystem the user may enter; opening one makes its subsystem the active one.
  const allVisible = useMemo(() => visibleMenus(menuTreeList), [menuTreeList]);
  const matches = useMatches();
  const revalidator = useRevalidator();
  const [sidebarOpened, setSidebarOpened] = useState(shell.sidebarOpened);
  const [drawerOpened, setDrawerOpened] = useState(false);
  const [settingsOpened, setSettingsOpened] = useState(false);
  const [override, setOverride] = useState<Partial<ShellSettings>>({});
  const titleOf = (pathname: string) => pageTitle(pathname, menuTreeList, screens);
  /**
   * One tag per screen (issue 38): a page's key is its path (`screenKey`), but a sub-page with no name of its own
   * (a receipt, which the shell can only call by its list's name) is its list's screen and takes the list's tag.
   */
  const tagKey = (path: string) => {
    const key = screenKey(path);
    const owner = menuForPath(menuTreeList, key);
    const ownerKey = owner?.menuPath ? screenKey(owner.menuPath) : key;
    return ownerKey !== key && titleOf(key) === owner?.menuName ? ownerKey : key;
  };
  const [tags, setTags] = useState<Tag[]>(() => parseTags(JSON.stringify(shell.tags), tagKey));
  const [seenPath, setSeenPath] = useState<string | null>(null);

  const currentPath = location.pathname + location.search;
  const leaf = matches[matches.length - 1];
  const taggable = isTaggable(location.pathname) && !NOT_FOUND_ROUTES.has(leaf?.id ?? "");
  // A page opened becomes a tag, and on a phone the menu drawer closes after each navigation.
  if (seenPath !== currentPath) {
    setSeenPath(currentPath);
    setDrawerOpened(false);
    if (taggable) setTags((current) => openScreenTag(current, currentPath, tagKey(currentPath)));
  }
  useEffect(() => {
    writeBrowserCookie(TAGS_COOKIE, serializeTags(tags));
  }, [tags]);
  useEffect(() => {
    loadedFor = { subsystemId: shell.subsystemId, allMenus: menuTreeList, subsystems: shell.subsystems };
  }, [shell.subsystemId, shell.subsystems, menuTreeList]);
  const can = usePermissions();
  useComplaintAlert(user.userId, user.pwdSecurityLevel !== 0 && can(COMPLAINTS_VIEW));

  const settings: ShellSettings = {
    tagsView: user.settings.tagsView,
    fixedHeader: user.settings.fixedHeader,
    sidebarLogo: user.settings.sidebarLogo,
    theme: user.settings.theme,
    navigationMode: !user.navigationMode || user.navigationMode === "top" ? "top" : "left",
    ...override,
  };
  const side = settings.navigationMode === "left";

  async function changeSettings(patch: Partial<ShellSettings>) {
    setOverride((current) => ({ ...current, ...patch }));
    try {
      await request("POST", "/api/v1/auth/user/saveSettings", { body: patch, loading: false });
      revalidator.revalidate();
    } catch {
      setOverride((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !(key in patch))));
    }
  }

  function toggleSidebar() {
    const next = !sidebarOpened;
    setSidebarOpened(next);
    writeBrowserCookie(SIDEBAR_COOKIE, next ? "1" : "0", YEAR_SECONDS);
  }

  const active = menuForPath(menus, location.pathname);
  const activeIds = useMemo(() => new Set(active ? [...active.parentIds, active.id] : []), [active]);
  const forbidden = !routeAllowed(location.pathname, user.roles, shell.routeRoles);
  const subsystemName = shell.subsystems.find((s) => s.id === shell.subsystemId)?.sysName ?? "子系统";

  const brand = (
    <Link to={HOME_PATH} className={classes.brand} aria-label={t.appTitle}>
      <Image src={shell.logo} alt="" w={30} h={30} fit="contain" data-testid="logo" />
      <Text className={classes.brandTitle} visibleFrom="lg">
        {t.appTitle}
      </Text>
    </Link>
  );

  const right = (
    <div className={classes.headerRight}>
      <MenuSearch menus={allVisible} subsystems={shell.subsystems} dark={!side} />
      {shell.subsystems.length > 1 && (
        <LiveMenu
          position="bottom-end"
          width={200}
          shadow="md"
          target={
            <UnstyledButton className={headerClasses.subsystem} data-dark={!side || undefined} aria-label={`${subsystemName}，切换子系统`} data-testid="subsystem-switcher">
              <IconApps size={16} />
              <span className={headerClasses.subsystemName}>{subsystemName}</span>
            </UnstyledButton>
          }
        >
          <Menu.Dropdown>
            <Menu.Label>切换子系统</Menu.Label>
            {shell.subsystems.map((s) => (
              <Menu.Item
                key={s.id}
                component={Link}
                to={s.sysCode === "admin" ? "/subsystem/admin" : `/subsystem/${s.sysCode}`}
                leftSection={<MenuIcon name={s.icon} size={16} />}
                color={s.id === shell.subsystemId ? "brand" : undefined}
              >
                {s.sysName}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </LiveMenu>
      )}
      {shell.tenants.length > 1 && <TenantSwitch tenants={shell.tenants} currentId={user.tenantId} dark={!side} />}
      <ErrorLog />
      <LiveTooltip label="系统布局配置">
        <PlainIconButton className={headerClasses.iconButton} data-dark={!side || undefined} aria-label="系统布局配置" onClick={() => setSettingsOpened(true)}>
          <IconSettings size={20} />
        </PlainIconButton>
      </LiveTooltip>
      <UserMenu user={user} dark={!side} />
    </div>
  );

  const breadcrumbs = active
    ? [...active.parentIds.map((id) => flatten(menus).find((m) => m.id === id)?.menuName), titleOf(location.pathname)].filter(Boolean)
    : [titleOf(location.pathname)];

  return (
    <AppShell
      layout={side ? "alt" : "default"}
      header={{ height: HEADER_HEIGHT + (settings.tagsView ? TAGS_HEIGHT : 0) }}
      navbar={side ? { width: sidebarOpened ? SIDEBAR_WIDTH : SIDEBAR_COLLAPSED_WIDTH, breakpoint: "md", collapsed: { mobile: true } } : undefined}
      padding="md"
      classNames={{ main: classes.main }}
      data-nav={settings.navigationMode}
      data-testid="app-shell"
    >
      <AppShell.Header className={classes.header} data-nav={settings.navigationMode} data-static={!settings.fixedHeader || undefined} data-testid="app-header">
        <div className={classes.headerRow}>
          <div className={classes.headerLeft}>
            <PlainIconButton
              className={`mantine-hidden-from-md ${headerClasses.iconButton}`}
              data-dark={!side || undefined}
              aria-label="打开菜单"
              onClick={() => setDrawerOpened(true)}
              data-testid="mobile-menu-button"
            >
              <IconMenu2 size={20} />
            </PlainIconButton>
            {side ? (
              <>
                <PlainIconButton
                  className={`mantine-visible-from-md ${headerClasses.iconButton}`}
                  aria-label={sidebarOpened ? "收起侧边栏" : "展开侧边栏"}
                  aria-expanded={sidebarOpened}
                  onClick={toggleSidebar}
                  data-testid="sidebar-toggle"
                >
                  {sidebarOpened ? <IconLayoutSidebarLeftCollapse size={20} /> : <IconLayoutSidebarLeftExpand size={20} />}
                </PlainIconButton>
                <Breadcrumbs separator="/" fz="sm" visibleFrom="sm" data-testid="breadcrumbs">
                  {breadcrumbs.map((name, index) => (
                    <Text key={`${name}-${index}`} size="sm" c={index === breadcrumbs.length - 1 ? "dark" : "dimmed"}>
                      {name}
                    </Text>
                  ))}
                </Breadcrumbs>
              </>
            ) : (
              <>
                {brand}
                <Box visibleFrom="md" style={{ flex: 1, minWidth: 0, height: "100%" }}>
                  <TopMenu menus={menus} activeIds={activeIds} />
                </Box>
              </>
            )}
          </div>
          {right}
        </div>
        {settings.tagsView && <TagsView tags={tags} titleOf={titleOf} current={tagKey(currentPath)} onChange={setTags} />}
      </AppShell.Header>

      {side && (
        <AppShell.Navbar className={classes.navbar} data-testid="sidebar" data-collapsed={!sidebarOpened || undefined}>
          {settings.sidebarLogo && (
            <Link to={HOME_PATH} className={classes.sideLogo} aria-label={t.appTitle} data-collapsed={!sidebarOpened || undefined} data-testid="sidebar-logo">
              <Image src={shell.logo} alt="" w={30} h={30} fit="contain" />
              {sidebarOpened && <Text className={classes.brandTitle}>{t.appTitle}</Text>}
            </Link>
          )}
          <AppShell.Section grow className={classes.navScroll}>
            <SideMenu menus={menus} activeIds={activeIds} collapsed={!sidebarOpened} />
          </AppShell.Section>
        </AppShell.Navbar>
      )}

      <Deferred when={drawerOpened}>
        <MenuDrawer opened={drawerOpened} onClose={() => setDrawerOpened(false)} logo={shell.logo} menus={menus} activeIds={activeIds} width={SIDEBAR_WIDTH + 30} />
      </Deferred>

      <AppShell.Main>
        {flash && (
          <Alert color="green" variant="light" mb="md" data-testid="flash">
            {flash}
          </Alert>
        )}
        {children ?? (forbidden ? <StatusPage code={401} title={t.shell.unauthorized} text={t.shell.unauthorizedText} /> : <Outlet />)}
      </AppShell.Main>

      <Deferred when={settingsOpened}>
        <SettingsDrawer opened={settingsOpened} onClose={() => setSettingsOpened(false)} settings={settings} onChange={changeSettings} />
      </Deferred>
      <LoadingMask />
      <LogoutConfirm />
      <ComplaintNotifications />
    </AppShell>
  );
}
