import { ColorInput, Divider, Drawer, Group, SegmentedControl, Stack, Switch, Text } from "@mantine/core";
import type { UserSettings } from "../../../resources/auth";

export const THEME_SWATCHES = ["#1890ff", "#304156", "#11a983", "#13c2c2", "#6959cd", "#f5222d", "#eb2f96", "#fa8c16"];

export type ShellSettings = Pick<UserSettings, "tagsView" | "fixedHeader" | "sidebarLogo" | "theme"> & { navigationMode: "top" | "left" };

interface Props {
  opened: boolean;
  onClose: () => void;
  settings: ShellSettings;
  onChange: (patch: Partial<ShellSettings>) => void;
}

/** Spec §1 settings drawer; every change is saved for the user on the server. */
export function SettingsDrawer({ opened, onClose, settings, onChange }: Props) {
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size={300} title={<Text fw={600}>系统布局配置</Text>} data-testid="settings-drawer">
      <Stack gap="lg">
        <div>
          <Text size="sm" fw={500} mb={6}>
            主题色
          </Text>
          <ColorInput
            aria-label="主题色"
            format="hex"
            swatches={THEME_SWATCHES}
            swatchesPerRow={8}
            value={settings.theme}
            withEyeDropper={false}
            onChangeEnd={(theme) => /^#[0-9a-f]{6}$/i.test(theme) && onChange({ theme })}
          />
          <Group gap={6} mt={8}>
            {THEME_SWATCHES.map((color) => (
              <button
                key={color}
                type="button"
                aria-label={`主题色 ${color}`}
                onClick={() => onChange({ theme: color })}
                style={{
                  width: 22,
                  height: 22,
                  borderRadius: 4,
                  background: color,
                  cursor: "pointer",
                  border: settings.theme.toLowerCase() === color ? "2px solid #000" : "2px solid transparent",
                  outline: "1px solid rgba(0,0,0,.08)",
                }}
              />
            ))}
          </Group>
        </div>
        <Divider />
        <div>
          <Text size="sm" fw={500} mb={6}>
            导航模式
          </Text>
          <SegmentedControl
            fullWidth
            aria-label="导航模式"
            value={settings.navigationMode}
            onChange={(value) => onChange({ navigationMode: value as "top" | "left" })}
            data={[
              { value: "top", label: "顶部菜单" },
              { value: "left", label: "侧边菜单" },
            ]}
          />
        </div>
        <Switch label="显示标签页" checked={settings.tagsView} onChange={(e) => onChange({ tagsView: e.currentTarget.checked })} />
        <Switch label="固定顶栏" checked={settings.fixedHeader} onChange={(e) => onChange({ fixedHeader: e.currentTarget.checked })} />
        <Switch label="侧边栏显示标志" checked={settings.sidebarLogo} onChange={(e) => onChange({ sidebarLogo: e.currentTarget.checked })} />
        <Text size="xs" c="dimmed">
          设置保存在您的账号中，在其他终端登录时同样生效。
        </Text>
      </Stack>
    </Drawer>
  );
}
