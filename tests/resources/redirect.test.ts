import { describe, expect, test } from "vitest";
import { safeRedirect, sameSiteLocation } from "../../resources/redirect";

describe("safeRedirect", () => {
  test("keeps a path of this site, with its query and hash", () => {
    expect(safeRedirect("/admin/dashboard?from=bookmark#top")).toBe("/admin/dashboard?from=bookmark#top");
    expect(safeRedirect("/admin/./sys/../dashboard")).toBe("/admin/dashboard");
  });

  test("every known bypass shape goes to the fallback", () => {
    const shapes = [
      "//evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/.//evil.example",
      "/./\\evil.example",
      "/%2F/../\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      " //evil.example",
      "https:evil.example",
      "https://evil.example/x",
      "javascript:alert(1)",
      "%2F%2Fevil.example",
      "evil.example",
      "",
    ];
    for (const shape of shapes) expect(safeRedirect(shape, "/home"), JSON.stringify(shape)).toBe("/home");
    expect(safeRedirect(undefined)).toBe("/");
    expect(safeRedirect(null)).toBe("/");
  });

  test("an encoded slash stays a harmless part of the path", () => {
    expect(safeRedirect("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
  });

  test("a Location of this origin becomes its path; any other goes home", () => {
    expect(sameSiteLocation("http://canteen.test/login?redirect=%2F", "http://canteen.test")).toBe("/login?redirect=%2F");
    expect(sameSiteLocation("http://canteen.test.evil.example/", "http://canteen.test")).toBe("/");
    expect(sameSiteLocation("//evil.example/", "http://canteen.test")).toBe("/");
  });
});
