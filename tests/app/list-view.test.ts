import { describe, expect, test } from "vitest";
import { filterFields, listFields, listView, sortableFields } from "../../resources/define";
import { findResource, resources } from "../../resources/index";
import { relativeTo } from "../../app/lib/list-url";

describe("a list page's declaration (issue 17)", () => {
  test("every list draws the same columns, filters and sort headers from its view as from the whole declaration", () => {
    for (const def of resources) {
      const view = listView(def);
      const names = (fields: { name: string }[]) => fields.map((f) => f.name);
      expect(names(listFields(view)), def.entity).toEqual(names(listFields(def)));
      expect(names(filterFields(view)), def.entity).toEqual(names(filterFields(def)));
      expect(sortableFields(view), def.entity).toEqual(sortableFields(def).filter((name) => ["createdAt", "updatedAt"].includes(name) || view.fields.some((f) => f.name === name)));
      // What the table, its cells and the filter bar read of a field is as declared.
      for (const field of view.fields) {
        const whole = def.fields.find((f) => f.name === field.name);
        for (const key of ["label", "type", "dict", "relation", "relationWhere", "list", "filter", "sortable"] as const) expect(field[key], `${def.entity}.${field.name}.${key}`).toEqual(whole?.[key]);
      }
    }
  });

  test("the users list leaves out the form's rules and the fields only forms show", () => {
    const users = findResource("auth/user");
    if (!users) throw new Error("auth/user is declared");
    const view = listView(users);
    const text = JSON.stringify(view);
    expect(users.fields.some((f) => f.pattern)).toBe(true);
    expect(text).not.toContain("pattern");
    expect(view.fields.map((f) => f.name)).not.toContain("remark");
    expect(view.fields.map((f) => f.name)).toEqual(expect.arrayContaining(["userName", "status", "orgId"]));
    expect(view.rowLinks).toEqual(users.rowLinks);
    expect(text.length).toBeLessThan(JSON.stringify(users).length * 0.75);
  });

  test("a list that edits in place keeps its whole declaration for its form", () => {
    const inPlace = resources.find((def) => def.indexOnly);
    if (inPlace) expect(listView(inPlace)).toBe(inPlace);
  });
});

describe("links relative to the list's address", () => {
  test("the list's own query, a row's screen, and what must stay absolute", () => {
    const here = "/admin/auth/user/index";
    expect(relativeTo(here, `${here}?pageSize=20&pageNum=3`)).toBe("?pageSize=20&pageNum=3");
    expect(relativeTo(here, here)).toBe("index");
    expect(relativeTo(here, "/admin/auth/user/edit/7")).toBe("edit/7");
    expect(relativeTo(here, "/admin/auth/role/index")).toBe("/admin/auth/role/index");
    expect(relativeTo(here, "/admin/auth/user/a:b")).toBe("/admin/auth/user/a:b");
  });
});
