import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { menuGroups, modules } from "../resources/index";
import { moduleScreens, type ScreenRoute } from "../resources/modules";

/** The app's own pages, outside any module: before the shell, and in it. */
const frameRoutes = [
  route("login", "routes/login.tsx"),
  route("shell-data/:version", "routes/shell-data.ts"),
  route("theme/:file", "routes/theme-css.ts"),
  route("icons.svg", "routes/icons-svg.ts"),
  route("bench/bare/:module/:entity", "routes/bench/bare-page.tsx"),
  route("admin", "routes/admin-index.tsx"),
  route("subsystem/admin", "routes/subsystem.tsx", { id: "subsystem-admin" }),
  route("subsystem/:sysCode", "routes/subsystem.tsx", { id: "subsystem" }),
  route("subsystem/:sysCode/:pageId", "routes/subsystem.tsx", { id: "subsystem-page" }),
];
const appRoutes = [
  route("admin/dashboard", "routes/dashboard.tsx", { id: "admin-dashboard" }),
  route("dashboard", "routes/dashboard.tsx", { id: "dashboard" }),
  route("admin/auth/user/modifyPasswd", "routes/modify-password.tsx"),
  route("profile/index", "routes/profile.tsx"),
  route("iframe/reportview", "routes/iframe.tsx"),
  route("ceshi/ceshi", "routes/ceshi.tsx"),
  route("bench/plain/:module/:entity", "routes/bench/plain-list.tsx"),
  route("404", "routes/not-found.tsx", { id: "not-found" }),
  route("401", "routes/unauthorized.tsx"),
];
const groupRoutes = menuGroups.map((group) => route(group.path.slice(1), "routes/resource/group.tsx", { id: `group:${group.path}` }));

/** The modules' screens, own and generated (decision 062): a path claimed twice stops the build here. */
const screens = moduleScreens(modules, [...frameRoutes, ...appRoutes, ...groupRoutes].map((r) => r.path ?? ""));
const toRoute = (s: ScreenRoute) => (s.id ? route(s.path, s.file, { id: s.id }) : route(s.path, s.file));

export default [
  ...frameRoutes,
  index("routes/home.tsx"),
  ...screens.filter((s) => s.bare).map(toRoute),
  layout("routes/shell.tsx", [
    ...appRoutes,
    ...groupRoutes,
    ...screens.filter((s) => !s.bare).map(toRoute),
    route("*", "routes/not-found.tsx", { id: "catch-all" }),
  ]),
] satisfies RouteConfig;
