import type { IconName } from "~/components/icon-names";
import { __iconNode as IconApps } from "@tabler/icons-react/dist/esm/icons/IconApps.mjs";
import { __iconNode as IconArrowBackUp } from "@tabler/icons-react/dist/esm/icons/IconArrowBackUp.mjs";
import { __iconNode as IconArrowLeft } from "@tabler/icons-react/dist/esm/icons/IconArrowLeft.mjs";
import { __iconNode as IconBaselineDensityLarge } from "@tabler/icons-react/dist/esm/icons/IconBaselineDensityLarge.mjs";
import { __iconNode as IconBaselineDensityMedium } from "@tabler/icons-react/dist/esm/icons/IconBaselineDensityMedium.mjs";
import { __iconNode as IconBaselineDensitySmall } from "@tabler/icons-react/dist/esm/icons/IconBaselineDensitySmall.mjs";
import { __iconNode as IconBug } from "@tabler/icons-react/dist/esm/icons/IconBug.mjs";
import { __iconNode as IconBuildingCommunity } from "@tabler/icons-react/dist/esm/icons/IconBuildingCommunity.mjs";
import { __iconNode as IconBuildingStore } from "@tabler/icons-react/dist/esm/icons/IconBuildingStore.mjs";
import { __iconNode as IconBuildingWarehouse } from "@tabler/icons-react/dist/esm/icons/IconBuildingWarehouse.mjs";
import { __iconNode as IconCalculator } from "@tabler/icons-react/dist/esm/icons/IconCalculator.mjs";
import { __iconNode as IconCash } from "@tabler/icons-react/dist/esm/icons/IconCash.mjs";
import { __iconNode as IconChartBar } from "@tabler/icons-react/dist/esm/icons/IconChartBar.mjs";
import { __iconNode as IconCheck } from "@tabler/icons-react/dist/esm/icons/IconCheck.mjs";
import { __iconNode as IconChevronDown } from "@tabler/icons-react/dist/esm/icons/IconChevronDown.mjs";
import { __iconNode as IconChevronLeft } from "@tabler/icons-react/dist/esm/icons/IconChevronLeft.mjs";
import { __iconNode as IconChevronRight } from "@tabler/icons-react/dist/esm/icons/IconChevronRight.mjs";
import { __iconNode as IconChevronsLeft } from "@tabler/icons-react/dist/esm/icons/IconChevronsLeft.mjs";
import { __iconNode as IconChevronsRight } from "@tabler/icons-react/dist/esm/icons/IconChevronsRight.mjs";
import { __iconNode as IconColumns } from "@tabler/icons-react/dist/esm/icons/IconColumns.mjs";
import { __iconNode as IconCreditCard } from "@tabler/icons-react/dist/esm/icons/IconCreditCard.mjs";
import { __iconNode as IconDownload } from "@tabler/icons-react/dist/esm/icons/IconDownload.mjs";
import { __iconNode as IconEye } from "@tabler/icons-react/dist/esm/icons/IconEye.mjs";
import { __iconNode as IconFileImport } from "@tabler/icons-react/dist/esm/icons/IconFileImport.mjs";
import { __iconNode as IconFileText } from "@tabler/icons-react/dist/esm/icons/IconFileText.mjs";
import { __iconNode as IconHome } from "@tabler/icons-react/dist/esm/icons/IconHome.mjs";
import { __iconNode as IconKey } from "@tabler/icons-react/dist/esm/icons/IconKey.mjs";
import { __iconNode as IconLayoutSidebarLeftCollapse } from "@tabler/icons-react/dist/esm/icons/IconLayoutSidebarLeftCollapse.mjs";
import { __iconNode as IconLayoutSidebarLeftExpand } from "@tabler/icons-react/dist/esm/icons/IconLayoutSidebarLeftExpand.mjs";
import { __iconNode as IconList } from "@tabler/icons-react/dist/esm/icons/IconList.mjs";
import { __iconNode as IconListCheck } from "@tabler/icons-react/dist/esm/icons/IconListCheck.mjs";
import { __iconNode as IconLock } from "@tabler/icons-react/dist/esm/icons/IconLock.mjs";
import { __iconNode as IconLogout } from "@tabler/icons-react/dist/esm/icons/IconLogout.mjs";
import { __iconNode as IconMenu2 } from "@tabler/icons-react/dist/esm/icons/IconMenu2.mjs";
import { __iconNode as IconMessageReport } from "@tabler/icons-react/dist/esm/icons/IconMessageReport.mjs";
import { __iconNode as IconPencil } from "@tabler/icons-react/dist/esm/icons/IconPencil.mjs";
import { __iconNode as IconPlayerPlay } from "@tabler/icons-react/dist/esm/icons/IconPlayerPlay.mjs";
import { __iconNode as IconPlus } from "@tabler/icons-react/dist/esm/icons/IconPlus.mjs";
import { __iconNode as IconPrinter } from "@tabler/icons-react/dist/esm/icons/IconPrinter.mjs";
import { __iconNode as IconQrcode } from "@tabler/icons-react/dist/esm/icons/IconQrcode.mjs";
import { __iconNode as IconReceiptRefund } from "@tabler/icons-react/dist/esm/icons/IconReceiptRefund.mjs";
import { __iconNode as IconRefresh } from "@tabler/icons-react/dist/esm/icons/IconRefresh.mjs";
import { __iconNode as IconReportMoney } from "@tabler/icons-react/dist/esm/icons/IconReportMoney.mjs";
import { __iconNode as IconSearch } from "@tabler/icons-react/dist/esm/icons/IconSearch.mjs";
import { __iconNode as IconSend } from "@tabler/icons-react/dist/esm/icons/IconSend.mjs";
import { __iconNode as IconSettings } from "@tabler/icons-react/dist/esm/icons/IconSettings.mjs";
import { __iconNode as IconShieldLock } from "@tabler/icons-react/dist/esm/icons/IconShieldLock.mjs";
import { __iconNode as IconToolsKitchen2 } from "@tabler/icons-react/dist/esm/icons/IconToolsKitchen2.mjs";
import { __iconNode as IconTrash } from "@tabler/icons-react/dist/esm/icons/IconTrash.mjs";
import { __iconNode as IconUpload } from "@tabler/icons-react/dist/esm/icons/IconUpload.mjs";
import { __iconNode as IconUser } from "@tabler/icons-react/dist/esm/icons/IconUser.mjs";
import { __iconNode as IconUserPlus } from "@tabler/icons-react/dist/esm/icons/IconUserPlus.mjs";
import { __iconNode as IconUsers } from "@tabler/icons-react/dist/esm/icons/IconUsers.mjs";
import { __iconNode as IconX } from "@tabler/icons-react/dist/esm/icons/IconX.mjs";
import { __iconNode as IconLinkOff } from "@tabler/icons-react/dist/esm/icons/IconLinkOff.mjs";
import { __iconNode as IconTag } from "@tabler/icons-react/dist/esm/icons/IconTag.mjs";

type IconNode = [string, Record<string, string>][];

/** Each icon's shapes, from Tabler's own modules (the version the package lock pins). */
const NODES: Record<IconName, IconNode> = {
  "apps": IconApps,
  "arrow-back-up": IconArrowBackUp,
  "arrow-left": IconArrowLeft,
  "baseline-density-large": IconBaselineDensityLarge,
  "baseline-density-medium": IconBaselineDensityMedium,
  "baseline-density-small": IconBaselineDensitySmall,
  "bug": IconBug,
  "building-community": IconBuildingCommunity,
  "building-store": IconBuildingStore,
  "building-warehouse": IconBuildingWarehouse,
  "calculator": IconCalculator,
  "cash": IconCash,
  "chart-bar": IconChartBar,
  "check": IconCheck,
  "chevron-down": IconChevronDown,
  "chevron-left": IconChevronLeft,
  "chevron-right": IconChevronRight,
  "chevrons-left": IconChevronsLeft,
  "chevrons-right": IconChevronsRight,
  "columns": IconColumns,
  "credit-card": IconCreditCard,
  "download": IconDownload,
  "eye": IconEye,
  "file-import": IconFileImport,
  "file-text": IconFileText,
  "home": IconHome,
  "key": IconKey,
  "layout-sidebar-left-collapse": IconLayoutSidebarLeftCollapse,
  "layout-sidebar-left-expand": IconLayoutSidebarLeftExpand,
  "list": IconList,
  "list-check": IconListCheck,
  "lock": IconLock,
  "logout": IconLogout,
  "menu-2": IconMenu2,
  "message-report": IconMessageReport,
  "pencil": IconPencil,
  "player-play": IconPlayerPlay,
  "plus": IconPlus,
  "printer": IconPrinter,
  "qrcode": IconQrcode,
  "receipt-refund": IconReceiptRefund,
  "refresh": IconRefresh,
  "report-money": IconReportMoney,
  "search": IconSearch,
  "send": IconSend,
  "settings": IconSettings,
  "shield-lock": IconShieldLock,
  "tools-kitchen-2": IconToolsKitchen2,
  "trash": IconTrash,
  "upload": IconUpload,
  "user": IconUser,
  "user-plus": IconUserPlus,
  "users": IconUsers,
  "x": IconX,
  "link-off": IconLinkOff,
  "tag": IconTag,
};

const escape = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

let sprite: string | null = null;

/** The sprite: one `symbol` per icon, its id the Tabler name. */
export function iconSprite(): string {
  sprite ??=
    `<svg xmlns="http://www.w3.org/2000/svg">` +
    Object.entries(NODES)
      .map(([name, node]) => {
        const shapes = node.map(([tag, attributes]) => {
          const attrs = Object.entries(attributes)
            .filter(([key]) => key !== "key")
            .map(([key, value]) => ` ${key}="${escape(String(value))}"`)
            .join("");
          return `<${tag}${attrs}/>`;
        });
        return `<symbol id="${name}" viewBox="0 0 24 24">${shapes.join("")}</symbol>`;
      })
      .join("") +
    `</svg>`;
  return sprite;
}
