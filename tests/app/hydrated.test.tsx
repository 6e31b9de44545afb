import { MantineProvider, Menu } from "@mantine/core";
import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { LiveMenu, LiveTooltip } from "../../app/lib/hydrated";

describe("floating parts drawn once the page is live (issue 39)", () => {
  test("the server draws a menu's and a tooltip's target alone, and never builds the closed dropdown", () => {
    let dropdownBuilt = 0;
    function Dropdown() {
      dropdownBuilt++;
      return (
        <Menu.Dropdown>
          <Menu.Item>个人中心</Menu.Item>
        </Menu.Dropdown>
      );
    }
    const html = renderToString(
      <MantineProvider>
        <LiveMenu target={<button data-testid="user-menu">张三</button>}>
          <Dropdown />
        </LiveMenu>
        <LiveTooltip label="退出登录">
          <button aria-label="退出登录">×</button>
        </LiveTooltip>
      </MantineProvider>,
    );
    expect(html).toContain('<button data-testid="user-menu">张三</button>');
    expect(html).toContain('<button aria-label="退出登录">×</button>');
    // Mantine's Menu.Target and Tooltip mark their targets; nothing of them is on the server's page.
    expect(html).not.toContain("aria-haspopup");
    expect(html).not.toContain("aria-expanded");
    expect(dropdownBuilt).toBe(0);
  });
});
