import type { SVGProps } from "react";
import { ICON_NAMES, type IconName } from "./icon-names";
import classes from "./icons.module.css";

export interface IconProps extends Omit<SVGProps<SVGSVGElement>, "stroke"> {
  size?: number | string;
  stroke?: number | string;
  title?: string;
}

/** A drawn icon, as Tabler's React components are typed (a menu maps its icon names to these). */
export type Icon = (props: IconProps) => React.JSX.Element;

// FNV-1a of the names: the sprite's address changes when the set of icons does, so the browser may keep each one.
let hash = 0x811c9dc5;
for (const char of ICON_NAMES.join()) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;

/** Where the sprite is served (`GET /icons.svg`, app/routes/icons-svg.ts). */
export const ICON_SPRITE_HREF = `/icons.svg?v=${hash.toString(36)}`;

/**
 * An icon that draws a symbol of the sprite, with the props of Tabler's own components. Tabler's components write
 * each icon's paths into the page: the navigation, the toolbars and the pager of a list page drew 9 KB of them
 * (issue 17). The stroke and fill Tabler writes as attributes on each icon are one CSS class here (the symbol's paths
 * inherit them, and the symbol has the viewBox); a colour or stroke width other than the default is an inline style,
 * which, unlike an attribute, wins over the class.
 */
function spriteIcon(name: IconName): Icon {
  const SpriteIcon = ({ size = 24, stroke = 2, color = "currentColor", className, title, style, ...rest }: IconProps) => {
    const custom = { ...(color !== "currentColor" ? { stroke: color } : {}), ...(Number(stroke) !== 2 ? { strokeWidth: stroke } : {}), ...style };
    return (
      <svg width={size} height={size} className={className ? `${classes.icon} ${className}` : classes.icon} style={Object.keys(custom).length ? custom : undefined} {...rest}>
        {title && <title>{title}</title>}
        <use href={`${ICON_SPRITE_HREF}#${name}`} />
      </svg>
    );
  };
  return SpriteIcon;
}

export const IconApps = spriteIcon("apps");
export const IconArrowBackUp = spriteIcon("arrow-back-up");
export const IconArrowLeft = spriteIcon("arrow-left");
export const IconBaselineDensityLarge = spriteIcon("baseline-density-large");
export const IconBaselineDensityMedium = spriteIcon("baseline-density-medium");
export const IconBaselineDensitySmall = spriteIcon("baseline-density-small");
export const IconBug = spriteIcon("bug");
export const IconBuildingCommunity = spriteIcon("building-community");
export const IconBuildingStore = spriteIcon("building-store");
export const IconBuildingWarehouse = spriteIcon("building-warehouse");
export const IconCalculator = spriteIcon("calculator");
export const IconCash = spriteIcon("cash");
export const IconChartBar = spriteIcon("chart-bar");
export const IconCheck = spriteIcon("check");
export const IconChevronDown = spriteIcon("chevron-down");
export const IconChevronLeft = spriteIcon("chevron-left");
export const IconChevronRight = spriteIcon("chevron-right");
export const IconChevronsLeft = spriteIcon("chevrons-left");
export const IconChevronsRight = spriteIcon("chevrons-right");
export const IconColumns = spriteIcon("columns");
export const IconCreditCard = spriteIcon("credit-card");
export const IconDownload = spriteIcon("download");
export const IconEye = spriteIcon("eye");
export const IconFileImport = spriteIcon("file-import");
export const IconFileText = spriteIcon("file-text");
export const IconHome = spriteIcon("home");
export const IconKey = spriteIcon("key");
export const IconLayoutSidebarLeftCollapse = spriteIcon("layout-sidebar-left-collapse");
export const IconLayoutSidebarLeftExpand = spriteIcon("layout-sidebar-left-expand");
export const IconList = spriteIcon("list");
export const IconListCheck = spriteIcon("list-check");
export const IconLock = spriteIcon("lock");
export const IconLogout = spriteIcon("logout");
export const IconMenu2 = spriteIcon("menu-2");
export const IconMessageReport = spriteIcon("message-report");
export const IconPencil = spriteIcon("pencil");
export const IconPlayerPlay = spriteIcon("player-play");
export const IconPlus = spriteIcon("plus");
export const IconPrinter = spriteIcon("printer");
export const IconQrcode = spriteIcon("qrcode");
export const IconReceiptRefund = spriteIcon("receipt-refund");
export const IconRefresh = spriteIcon("refresh");
export const IconReportMoney = spriteIcon("report-money");
export const IconSearch = spriteIcon("search");
export const IconSend = spriteIcon("send");
export const IconSettings = spriteIcon("settings");
export const IconShieldLock = spriteIcon("shield-lock");
export const IconToolsKitchen2 = spriteIcon("tools-kitchen-2");
export const IconTrash = spriteIcon("trash");
export const IconUpload = spriteIcon("upload");
export const IconUser = spriteIcon("user");
export const IconUserPlus = spriteIcon("user-plus");
export const IconUsers = spriteIcon("users");
export const IconX = spriteIcon("x");
export const IconLinkOff = spriteIcon("link-off");
export const IconTag = spriteIcon("tag");
