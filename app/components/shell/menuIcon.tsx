import {
  IconBuildingWarehouse,
  IconChartBar,
  IconFileText,
  IconHome,
  IconMessageReport,
  IconReportMoney,
  IconSettings,
  IconShieldLock,
  IconToolsKitchen2,
  IconUsers,
  type Icon,
} from "~/components/icons";

const icons: Record<string, Icon> = {
  home: IconHome,
  dashboard: IconHome,
  settings: IconSettings,
  "shield-lock": IconShieldLock,
  "tools-kitchen-2": IconToolsKitchen2,
  "chart-bar": IconChartBar,
  "building-warehouse": IconBuildingWarehouse,
  "report-money": IconReportMoney,
  users: IconUsers,
  "message-report": IconMessageReport,
};

/** Menu icons are Tabler names (menu.menuIcon); an unknown or empty one gets a plain page icon. */
export function MenuIcon({ name, size = 18 }: { name: string | null; size?: number }) {
  const Component = (name && icons[name]) || IconFileText;
  return <Component size={size} stroke={1.6} aria-hidden />;
}
