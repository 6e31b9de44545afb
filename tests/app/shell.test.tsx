import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, test } from "vitest";
import type { MenuNode } from "../../resources/auth";
import { ServerShellData, type PageUser } from "../../app/lib/shell-data";
import { defaultSettings } from "../../resources/auth";
import { Permission, PermissionCodeMissing } from "../../app/components/shell/Permission";
import { screenNames } from "../../resources/define";
import { documents, resources } from "../../resources/index";
import { activeSubsystemFor, buttonPermissionsByMenu, menuForPath, pageTitle, routeAllowed, subsystemTree, visibleMenus } from "../../app/lib/menus";
import { closeAllTags, closeOtherTags, closeTag, MAX_TAGS, openTag, parseTags, serializeTags } from "../../app/lib/tags";

let nextId = 1;
function node(menuType: string, menuName: string, menuPath: string | null, children: MenuNode[] = [], extra: Partial<MenuNode> = {}): MenuNode {
  const id = nextId++;
  return { id, subsystemId: 1, parentId: null, parentIds: [], menuName, menuPath, menuIcon: null, menuType, menuTarget: "other", permission: null, roles: [], sort: id, children, ...extra };
}

const tree = [
  node("page", "首页", "/admin/dashboard"),
  node("path", "系统管理", "/admin/sys", [
    node("page", "图片资源", "/admin/sys/imageobj/index", [node("button", "新增", null, [node("button", "确认", null, [], { permission: "sys:imageObj:confirm" })], { permission: "sys:imageObj:create" })]),
    node("page", "租户", "/admin/sys/tenant/index", [node("page", "第三层", "/admin/sys/tenant/deep")]),
    node("miniapp", "小程序", "/pages/x"),
  ]),
  node("path", "空目录", "/empty", [node("button", "按钮", null)]),
  node("button", "顶层按钮", null, [node("page", "按钮下的页面", "/under/button")]),
  node("url", "外部链接", "https://example.com/"),
  node("miniapp", "小程序入口", "/pages/index", [node("page", "小程序下的页面", "/under/miniapp")]),
];

describe("menus (spec §2, §6)", () => {
  test("only pages show, in folders that hold pages, two levels at most; other types go with their children", () => {
    const names = (nodes: MenuNode[]): unknown => nodes.map((n) => (n.children.length ? [n.menuName, names(n.children)] : n.menuName));
    expect(names(visibleMenus(tree))).toEqual(["首页", ["系统管理", ["图片资源", "租户"]]]);
  });

  test("one subsystem's part of the tree, as the menu API builds it for that subsystem", () => {
    const other = node("path", "餐饮", "/zhct", [node("page", "菜品", "/zhct/food/index", [], { subsystemId: 2 }), node("page", "外来", "/x/index")], { subsystemId: 2 });
    const names = (nodes: MenuNode[]): unknown => nodes.map((n) => (n.children.length ? [n.menuName, names(n.children)] : n.menuName));
    expect(names(subsystemTree([...tree, other], 2))).toEqual([["餐饮", ["菜品"]]]);
    expect(names(visibleMenus(subsystemTree([...tree, other], 1)))).toEqual(["首页", ["系统管理", ["图片资源", "租户"]], "外来"]);
  });

  test("a create or edit page belongs to the list beside it", () => {
    expect(menuForPath(tree, "/admin/sys/imageobj/index")?.menuName).toBe("图片资源");
    expect(menuForPath(tree, "/admin/sys/imageobj/edit/3")?.menuName).toBe("图片资源");
    expect(menuForPath(tree, "/admin/sys/imageobjx/index")).toBeUndefined();
  });

  test("page titles come from the menu, the resource or a fixed name", () => {
    const screens = resources.map(screenNames);
    expect(pageTitle("/admin/sys/imageobj/index", tree, screens)).toBe("图片资源");
    expect(pageTitle("/profile/index", tree, screens)).toBe("个人中心");
    expect(pageTitle("/zhct/mealordercomplaints/create", [], screens)).toBe("新增订餐申诉");
    expect(pageTitle("/zhct/mealordercomplaints/edit/7", [], screens)).toBe("编辑订餐申诉");
    expect(pageTitle("/zhct/mealordercomplaints/process/7", [], screens)).toBe("处理订餐申诉");
    expect(pageTitle("/admin/sys/tenant/index", [], screens)).toBe("租户");
    // A document's pages (decision 068): its detail and print views are named by its title.
    const withDocuments = [...screens, ...documents.map((d) => screenNames(d.header))];
    expect(pageTitle("/zhhq/warehouseout/detail/7", [], withDocuments)).toBe("出库单详情");
    expect(pageTitle("/zhhq/warehouseout/print/7", [], withDocuments)).toBe("打印出库单");
    expect(pageTitle("/zhhq/warehousein/create", [], withDocuments)).toBe("新增入库单");
  });

  test("admin reaches every route; others those without a restriction or whose restriction matches", () => {
    const rules = [{ path: "/report/secret/index", roles: ["auditor"] }];
    expect(routeAllowed("/report/secret/index", ["admin"], rules)).toBe(true);
    expect(routeAllowed("/report/secret/index", ["clerk", "auditor"], rules)).toBe(true);
    expect(routeAllowed("/report/secret/index", ["clerk"], rules)).toBe(false);
    expect(routeAllowed("/report/secret/edit/1", ["clerk"], rules)).toBe(false);
    expect(routeAllowed("/report/open/index", ["clerk"], rules)).toBe(true);
  });

  test("button codes are grouped by menu, one or two levels of buttons", () => {
    expect(buttonPermissionsByMenu(tree)).toEqual({ "/admin/sys/imageobj/index": ["sys:imageObj:create", "sys:imageObj:confirm"] });
  });

  test("the active subsystem: the page's own, else the chosen one, else the first", () => {
    const subsystems = [
      { id: 1, sysCode: "admin", sysName: "系统管理", icon: null },
      { id: 2, sysCode: "zhct", sysName: "智慧餐厅", icon: null },
    ];
    expect(activeSubsystemFor("/admin/sys/tenant/index", tree, "2", subsystems)).toBe(1);
    expect(activeSubsystemFor("/dashboard", tree, "2", subsystems)).toBe(2);
    expect(activeSubsystemFor("/dashboard", tree, "9", subsystems)).toBe(1);
  });
});

describe("tags (spec §1, §9)", () => {
  test("ten at most: the oldest closes first and the dashboard stays", () => {
    let tags = parseTags(null);
    for (let i = 1; i <= 12; i++) tags = openTag(tags, `/p${i}/index?page=${i}`);
    expect(tags).toHaveLength(MAX_TAGS);
    expect(tags.map((t) => t.pathname)).toEqual(["/admin/dashboard", ...Array.from({ length: 9 }, (_, i) => `/p${i + 4}/index`)]);
  });

  test("a tag keeps the last URL of its page, so going back restores filters and page", () => {
    const tags = openTag(openTag(parseTags(null), "/a/index?name=x"), "/a/index?name=y&pageNum=3");
    expect(tags.map((t) => t.path)).toEqual(["/admin/dashboard", "/a/index?name=y&pageNum=3"]);
  });

  test("close, close others and close all never close the dashboard", () => {
    const tags = ["/a", "/b", "/c"].reduce(openTag, parseTags(null));
    expect(closeTag(tags, "/b").map((t) => t.pathname)).toEqual(["/admin/dashboard", "/a", "/c"]);
    expect(closeTag(tags, "/admin/dashboard")).toHaveLength(4);
    expect(closeOtherTags(tags, "/c").map((t) => t.pathname)).toEqual(["/admin/dashboard", "/c"]);
    expect(closeAllTags(tags).map((t) => t.pathname)).toEqual(["/admin/dashboard"]);
  });

  test("the cookie round-trips, drops foreign or malformed entries and stays small", () => {
    const tags = ["/a?x=1", "/b"].reduce(openTag, parseTags(null));
    expect(parseTags(serializeTags(tags))).toEqual(tags);
    expect(parseTags('["//evil.example/x","https://evil.example/","/ok"]').map((t) => t.path)).toEqual(["/admin/dashboard", "/ok"]);
    expect(parseTags("not json").map((t) => t.path)).toEqual(["/admin/dashboard"]);
    const long = Array.from({ length: 10 }, (_, i) => `/p${i}?q=${"中".repeat(150)}`).reduce(openTag, parseTags(null));
    expect(encodeURIComponent(serializeTags(long)).length).toBeLessThanOrEqual(3000);
    expect(JSON.parse(serializeTags(long))[0]).toBe("/admin/dashboard");
  });
});

describe("<Permission> (spec §5, §6)", () => {
  function render(element: React.ReactNode, roles: string[], menus: MenuNode[]) {
    const user = { userName: "u", roles, settings: defaultSettings, shellVersion: "v1" } as unknown as PageUser;
    const router = createMemoryRouter([{ id: "root", path: "/", loader: () => ({ user }), element }], {
      hydrationData: { loaderData: { root: { user } } },
    });
    // The button codes come from the shell data, as the server renders them (decision 019).
    return renderToString(
      <ServerShellData.Provider value={{ menuTreeList: menus, dictItemList: [], screens: [] }}>
        <RouterProvider router={router} />
      </ServerShellData.Provider>,
    );
  }

  test("removes what the user may not do and keeps what it may", () => {
    const menus = [node("page", "图片资源", "/admin/sys/imageobj/index", [node("button", "新增", null, [], { permission: "sys:imageObj:create" })])];
    const buttons = (
      <>
        <Permission code="sys:imageObj:create">
          <button>新增</button>
        </Permission>
        <Permission code="sys:imageObj:delete">
          <button>删除</button>
        </Permission>
      </>
    );
    const clerk = render(buttons, ["clerk"], menus);
    expect(clerk).toContain("新增");
    expect(clerk).not.toContain("删除");
    const admin = render(buttons, ["admin"], []);
    expect(admin).toContain("新增");
    expect(admin).toContain("删除");
  });

  test("an element marked without a code is an error", () => {
    expect(() =>
      render(
        <Permission code="">
          <button>新增</button>
        </Permission>,
        ["admin"],
        [],
      ),
    ).toThrow(PermissionCodeMissing);
  });
});
