import { defineResource } from "../define";

/** Image objects (spec §2 imageobj): the logo of the top bar is the newest enabled one of type logo. */
export const imageObj = defineResource({
  module: "sys",
  entity: "imageObj",
  screen: "imageobj",
  screenBase: "/admin/sys",
  table: "image_obj",
  title: "图片资源",
  scope: "tenant",
  labelField: "name",
  defaultSort: { field: "sort", dir: "asc" },
  actions: ["create", "update", "delete"],
  fields: [
    { name: "name", label: "名称", type: "text", required: true, filter: "like", sortable: true, max: 100 },
    { name: "imageType", label: "图片类型", type: "enum", dict: "imageType", required: true, filter: "eq", defaultValue: "logo" },
    { name: "image", label: "图片", type: "image", required: true, list: true },
    { name: "sort", label: "排序", type: "number", sortable: true, defaultValue: 0, min: 0, max: 9999 },
    { name: "status", label: "状态", type: "enum", dict: "status", required: true, filter: "eq", defaultValue: "1" },
    { name: "remark", label: "备注", type: "longText", max: 500 },
  ],
});
