import { defineResource } from "../define";

/**
 * The warehouse's master data (spec §2 /zhhq, issue 40, DOMAIN.md "Logistics"): what the stock documents name. A
 * status that an API client leaves out is 有效 (server/modules/zhhq/master.ts): terminals and scales create a warehouse,
 * a goods or a supplier with its name alone (issue 40's contract), so these statuses are not required fields.
 */
const restaurantOnly = { field: "orgType", values: ["restaurant"] } as const;
const CODE = { regex: /^[A-Za-z0-9][A-Za-z0-9_-]*$/, message: "编码只能包含字母、数字、下划线和短横线" };
const status = { name: "status", label: "状态", type: "enum", dict: "status", filter: "eq", defaultValue: "1" } as const;
const remark = { name: "remark", label: "备注", type: "longText", max: 500 } as const;

export const warehouseType = defineResource({
  module: "zhhq",
  entity: "warehouseType",
  screen: "warehousetype",
  screenBase: "/zhhq",
  table: "warehouse_type",
  title: "仓库类型",
  scope: "tenant",
  labelField: "typeName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  indexOnly: true,
  fields: [
    { name: "typeName", label: "类型名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 50 },
    { name: "sort", label: "排序", type: "number", min: 0, max: 9999, sortable: true },
    status,
    remark,
  ],
});

/**
 * The table predates the declarations (migration 0005 made it for the users' warehouse links, its name column `name`);
 * migration 0056 adds the rest.
 */
export const warehouse = defineResource({
  module: "zhhq",
  entity: "warehouse",
  screen: "warehouse",
  screenBase: "/zhhq",
  table: "warehouse",
  title: "仓库",
  menuTitle: "仓库管理",
  scope: "tenant",
  labelField: "warehouseName",
  labelDetail: ["warehouseCode"],
  defaultSort: { field: "warehouseCode", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "warehouseCode", label: "仓库编码", type: "text", unique: true, filter: "like", sortable: true, max: 32, pattern: { regex: CODE.regex, message: `仓库${CODE.message}` } },
    { name: "warehouseName", column: "name", label: "仓库名称", type: "text", required: true, filter: "like", sortable: true, max: 50 },
    { name: "warehouseTypeId", label: "仓库类型", type: "relation", relation: "zhhq/warehouseType", filter: "eq" },
    { name: "restaurantId", label: "服务餐厅", type: "relation", relation: "auth/org", filter: "eq", relationWhere: restaurantOnly },
    { name: "address", label: "地址", type: "text", max: 200 },
    { name: "keepers", label: "仓管员", type: "text", max: 100, placeholder: "如：张三、李四", description: "可登录管理的仓管员在 用户管理 → 分配仓库 中指定" },
    status,
    remark,
  ],
});

export const unit = defineResource({
  module: "zhhq",
  entity: "unit",
  screen: "unit",
  screenBase: "/zhhq",
  table: "goods_unit",
  title: "计量单位",
  scope: "tenant",
  labelField: "unitName",
  defaultSort: { field: "unitName", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  indexOnly: true,
  fields: [
    { name: "unitName", label: "单位名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 10, placeholder: "如：千克、袋、桶" },
    status,
    remark,
  ],
});

export const goodsType = defineResource({
  module: "zhhq",
  entity: "goodsType",
  screen: "goodstype",
  screenBase: "/zhhq",
  table: "goods_type",
  title: "物资分类",
  scope: "tenant",
  labelField: "typeName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  fields: [
    { name: "parentId", label: "上级分类", type: "treeParent", relation: "zhhq/goodsType", filter: "eq" },
    { name: "typeName", label: "分类名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 50 },
    { name: "sort", label: "排序", type: "number", min: 0, max: 9999, sortable: true },
    status,
    remark,
  ],
});

export const goods = defineResource({
  module: "zhhq",
  entity: "goods",
  screen: "goods",
  screenBase: "/zhhq",
  table: "goods",
  title: "物资",
  menuTitle: "物资档案",
  scope: "tenant",
  labelField: "goodsName",
  labelDetail: ["goodsCode", "spec"],
  defaultSort: { field: "goodsCode", dir: "asc" },
  actions: ["create", "update", "delete", "export", "import"],
  fields: [
    { name: "goodsCode", label: "物资编码", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 32, pattern: { regex: CODE.regex, message: `物资${CODE.message}` } },
    { name: "goodsName", label: "物资名称", type: "text", required: true, filter: "like", sortable: true, max: 50 },
    { name: "spec", label: "规格", type: "text", max: 50, placeholder: "如：25kg/袋" },
    { name: "unitId", label: "单位", type: "relation", relation: "zhhq/unit", filter: "eq" },
    { name: "goodsTypeId", label: "物资分类", type: "relation", relation: "zhhq/goodsType", filter: "eq" },
    { name: "warehouseId", label: "默认仓库", type: "relation", relation: "zhhq/warehouse", filter: "eq" },
    { name: "shelfLifeDays", label: "保质期（天）", type: "number", min: 1, max: 36500, sortable: true, description: "入库未填到期日期时，按生产日期加保质期计算" },
    { name: "referencePrice", label: "参考单价（元）", type: "money", max: 100_000_000, sortable: true },
    status,
    remark,
  ],
});

/** Stock below the lower or above the upper quantity of a warehouse × goods is a warning (预警). */
export const goodsThreshold = defineResource({
  module: "zhhq",
  entity: "goodsThreshold",
  screen: "goodsthreshold",
  screenBase: "/zhhq",
  table: "goods_threshold",
  title: "库存上下限",
  scope: "tenant",
  labelField: "goodsId",
  defaultSort: { field: "createdAt", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  uniqueKeys: [{ fields: ["warehouseId", "goodsId"], message: "该仓库已设置此物资的上下限" }],
  fields: [
    { name: "warehouseId", label: "仓库", type: "relation", relation: "zhhq/warehouse", required: true, filter: "eq", onDelete: "cascade" },
    { name: "goodsId", label: "物资", type: "relation", relation: "zhhq/goods", required: true, filter: "eq", onDelete: "cascade" },
    { name: "lowerQuantity", label: "下限数量", type: "quantity", description: "最多 3 位小数" },
    { name: "upperQuantity", label: "上限数量", type: "quantity", description: "最多 3 位小数，不小于下限" },
    remark,
  ],
});

export const supplierType = defineResource({
  module: "zhhq",
  entity: "supplierType",
  screen: "suppliertype",
  screenBase: "/zhhq",
  table: "supplier_type",
  title: "供应商类型",
  scope: "tenant",
  labelField: "typeName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  indexOnly: true,
  fields: [
    { name: "typeName", label: "类型名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 50 },
    { name: "sort", label: "排序", type: "number", min: 0, max: 9999, sortable: true },
    status,
    remark,
  ],
});

export const supplier = defineResource({
  module: "zhhq",
  entity: "supplier",
  screen: "supplier",
  screenBase: "/zhhq",
  table: "supplier",
  title: "供应商",
  menuTitle: "供应商管理",
  scope: "tenant",
  labelField: "supplierName",
  labelDetail: ["contactName"],
  defaultSort: { field: "supplierName", dir: "asc" },
  actions: ["create", "update", "delete", "export", "import"],
  fields: [
    { name: "supplierName", label: "供应商名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 100 },
    { name: "supplierTypeId", label: "供应商类型", type: "relation", relation: "zhhq/supplierType", filter: "eq" },
    { name: "contactName", label: "联系人", type: "text", filter: "like", max: 50 },
    {
      name: "phone",
      label: "联系电话",
      type: "text",
      filter: "like",
      max: 20,
      pattern: { regex: /^(1\d{10}|0\d{2,3}-?\d{7,8}(-\d{1,6})?|400-?\d{3}-?\d{4})$/, message: "联系电话应为 11 位手机号、带区号的固定电话或 400 电话" },
    },
    { name: "address", label: "地址", type: "text", max: 200 },
    {
      name: "creditCode",
      label: "统一社会信用代码",
      type: "text",
      unique: true,
      filter: "like",
      max: 18,
      pattern: { regex: /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/, message: "统一社会信用代码应为 18 位数字或大写字母" },
    },
    status,
    remark,
  ],
});

/** A supplier's contract price for a goods over a period; one supplier × goods has no two periods that overlap. */
export const supplierGoods = defineResource({
  module: "zhhq",
  entity: "supplierGoods",
  screen: "suppliergoods",
  screenBase: "/zhhq",
  table: "supplier_goods",
  title: "供应商物资",
  menuTitle: "合同价格",
  scope: "tenant",
  labelField: "goodsId",
  defaultSort: { field: "validFrom", dir: "desc" },
  actions: ["create", "update", "delete", "export"],
  indexes: [["supplierId", "goodsId", "validFrom"]],
  fields: [
    { name: "supplierId", label: "供应商", type: "relation", relation: "zhhq/supplier", required: true, filter: "eq", onDelete: "cascade" },
    { name: "goodsId", label: "物资", type: "relation", relation: "zhhq/goods", required: true, filter: "eq", onDelete: "cascade" },
    { name: "price", label: "合同单价（元）", type: "money", required: true, min: 0, max: 100_000_000, sortable: true },
    { name: "validFrom", label: "生效日期", type: "date", required: true, filter: "range", sortable: true },
    { name: "validTo", label: "失效日期", type: "date", sortable: true, description: "不填表示长期有效" },
    remark,
  ],
});

/** What a stock-out is for (kitchen use, stall use, repair, loss…). */
export const outUseType = defineResource({
  module: "zhhq",
  entity: "outUseType",
  screen: "outusetype",
  screenBase: "/zhhq",
  table: "out_use_type",
  title: "出库用途",
  scope: "tenant",
  labelField: "typeName",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete", "export"],
  indexOnly: true,
  fields: [
    { name: "typeName", label: "用途名称", type: "text", required: true, unique: true, filter: "like", sortable: true, max: 50, placeholder: "如：厨房领用、档口领用、维修领用、报损" },
    { name: "sort", label: "排序", type: "number", min: 0, max: 9999, sortable: true },
    status,
    remark,
  ],
});

/** The warehouse's tables, declared once (decision 014), in the order their references need. */
export const zhhqMasterResources = [warehouseType, warehouse, unit, goodsType, goods, goodsThreshold, supplierType, supplier, supplierGoods, outUseType] as const;
