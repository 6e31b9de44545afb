import { Menu } from "@mantine/core";
import { LiveMenu } from "~/lib/hydrated";
import { IconBuildingStore, IconCheck } from "~/components/icons";
import { HOME_PATH } from "~/lib/paths";
import { request } from "~/lib/request";
import classes from "./header.module.css";
import { PlainButton } from "~/components/PlainButton";

/** A super admin works inside any tenant: the server keeps the choice on the session. */
export function TenantSwitch({ tenants, currentId, dark }: { tenants: Array<{ id: number; name: string }>; currentId: number; dark: boolean }) {
  const current = tenants.find((t) => t.id === currentId);
  // The accessible name starts with what the button shows (WCAG 2.5.3), then says what it does.
  const label = current ? `${current.name}，切换租户` : "切换租户";
  async function choose(tenantId: number) {
    await request("POST", "/api/v1/sys/tenant/switch", { body: { tenantId } });
    window.location.assign(HOME_PATH);
  }
  return (
    <LiveMenu
      position="bottom-end"
      width={220}
      shadow="md"
      target={
        <PlainButton variant="subtle" size="compact-sm" className={classes.iconButton} data-dark={dark || undefined} leftSection={<IconBuildingStore size={16} />} aria-label={label} data-testid="tenant-switch">
          {current?.name ?? "切换租户"}
        </PlainButton>
      }
    >
      <Menu.Dropdown mah={420} style={{ overflowY: "auto" }}>
        <Menu.Label>切换租户</Menu.Label>
        {tenants.map((tenant) => (
          <Menu.Item key={tenant.id} onClick={() => choose(tenant.id)} rightSection={tenant.id === currentId ? <IconCheck size={14} /> : null}>
            {tenant.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </LiveMenu>
  );
}
