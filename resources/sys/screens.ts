import type { ModuleScreens } from "../modules";

/**
 * 系统管理's menu groups and its own screens (decision 062): read by the route table, the seeded menus and the group
 * pages' loaders, never by a page's scripts, so they are kept apart from the declarations every list page loads.
 */
export const sysScreens = {
  menuGroups: [
    {
      subsystem: "admin",
      path: "/admin/sys",
      title: "系统管理",
      icon: "settings",
      sort: 10,
      home: "/admin/sys/tenant",
      sections: [
        { title: "系统设置", screens: ["tenant", "subsystem", "menu", "parameterconfig", "dict", "dictitem", "holiday", "announcement", "imageobj", "operationlog"] },
        { title: "设备", screens: ["device", "appversion", "modelversion", "exceptioninfo", "printdevice", "devicedetectconfig", "iccard"] },
        { title: "商户", screens: ["merchant", "merchantconfig", "merchantorg"] },
      ],
    },
  ],
  /** The screens that are not the generic list or form. */
  screens: [
    { path: "admin/sys/menu/index", file: "routes/sys/menu-tree.tsx", replacesGenerated: true },
    { path: "admin/sys/menu/create/:subsystemId", file: "routes/sys/menu-form.tsx", id: "sys/menu:create-in" },
    { path: "admin/sys/menu/edit/:id", file: "routes/sys/menu-form.tsx", id: "sys/menu:edit-tree", replacesGenerated: true },
    { path: "admin/sys/device/setting/:id", file: "routes/sys/device-setting.tsx" },
    { path: "admin/sys/merchantconfig/edit/:merchantId/:parameterCode", file: "routes/sys/merchant-config-edit.tsx" },
    { path: "admin/sys/merchantconfig/edit/:id", file: "routes/sys/merchant-config-by-id.tsx", replacesGenerated: true },
    { path: "admin/sys/iccard/init", file: "routes/sys/iccard-init.tsx", id: "sys/iccardInit:init" },
    { path: "admin/sys/iccard/create", file: "routes/sys/iccard-init.tsx", id: "sys/iccardInit:create-init", replacesGenerated: true },
  ],
} satisfies ModuleScreens;
