import { Box, Drawer, Image, Text } from "@mantine/core";
import type { MenuNode } from "../../../resources/auth";
import { SideMenu } from "./SideMenu";
import { t } from "~/lib/messages";
import classes from "~/routes/shell.module.css";

/** The navigation on a narrow screen (under 992 px): the side menu in a drawer. */
export function MenuDrawer({ opened, onClose, logo, menus, activeIds, width }: { opened: boolean; onClose: () => void; logo: string; menus: MenuNode[]; activeIds: Set<number>; width: number }) {
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      size={width}
      withCloseButton={false}
      padding={0}
      classNames={{ content: classes.drawerContent, body: classes.drawerBody }}
      data-testid="menu-drawer"
    >
      <Box className={classes.sideLogo}>
        <Image src={logo} alt="" w={30} h={30} fit="contain" />
        <Text className={classes.brandTitle}>{t.appTitle}</Text>
      </Box>
      <SideMenu menus={menus} activeIds={activeIds} collapsed={false} />
    </Drawer>
  );
}
