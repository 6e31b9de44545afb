/** Chinese messages of the system-management rules (subsystems, menus, dictionaries, devices, merchants, IC cards). */
export const sysMessages = {
  subsystem: {
    hasMenus: "该子系统下还有菜单，不能删除",
    missing: "子系统不存在",
  },
  menu: {
    pathRequired: "请输入菜单路径",
    buttonNeedsPermission: "按钮必须填写权限标识",
    buttonNeedsPage: "按钮只能添加在页面类型的菜单下",
    parentIsButton: "按钮下不能再添加菜单",
    parentOtherSubsystem: "上级菜单必须属于同一子系统",
    parentSelf: "上级菜单不能是自己",
    parentDescendant: "上级菜单不能是自己的下级菜单",
    parentMissing: "所选上级菜单不存在",
    childrenMove: "该菜单下还有子菜单，不能更换子系统",
    childrenButton: "该菜单下还有子菜单，不能改为按钮",
    childrenButtons: "该菜单下还有按钮，只有页面类型的菜单可以包含按钮",
    childrenDelete: "该菜单下还有子菜单，请先删除子菜单",
  },
  dict: {
    hasItems: "该字典下还有字典项，不能删除",
    builtInDelete: "内置字典不能删除，可以停用",
    builtInCode: "内置字典的编码不能修改",
    missing: "字典不存在，请先添加字典",
    duplicateValue: "该字典下已有此字典值",
    notNumber: "值类型为数字时，字典值必须是数字",
    builtInItemDelete: "内置字典项不能删除，可以停用",
    builtInItemKey: "内置字典项的字典编码和字典值不能修改",
  },
  device: {
    unknownCode: "设备编码不存在",
    disabled: "设备已停用",
  },
  version: {
    duplicateCode: "该文件类型下已有此版本号",
    publishedDelete: (title: string) => `已发布的${title}不能删除，请先取消发布`,
  },
  parameterConfig: {
    hasMerchantConfig: "该参数已有商户配置，不能删除",
  },
  merchantConfig: {
    unknownParameter: "参数编码不存在，请先在系统参数中添加",
    duplicate: "该商户已配置此参数",
    notFound: "商户参数配置不存在",
  },
  merchantOrg: {
    taken: (merchantName: string) => `该餐厅/档口已由商户「${merchantName}」经营`,
  },
  detectConfig: {
    duplicate: "该设备已有识别配置",
  },
  iccard: {
    initialised: (at: string) => `该卡已于 ${at} 初始化，不能重复初始化`,
    reasonRequired: "初始化失败时请填写失败原因",
    sectorRange: "扇区编号应在 0 至 39 之间，范围的起始不能大于结束",
  },
};
