import { Avatar, Menu, Text, UnstyledButton } from "@mantine/core";
import { LiveMenu, LiveTooltip } from "~/lib/hydrated";
import { IconChevronDown, IconHome, IconKey, IconLogout, IconQrcode, IconUser } from "~/components/icons";
import { useState } from "react";
import { Form, Link, useNavigate } from "react-router";
import type { PageUser } from "~/lib/shell-data";
import { t } from "~/lib/messages";
import { CHANGE_PASSWORD_PATH, HOME_PATH } from "~/lib/paths";
import { endSession } from "~/lib/request";
import { ACTIVE_MENU_KEY, SUBSYSTEM_COOKIE, TAGS_COOKIE, writeBrowserCookie } from "~/lib/shell-state";
import classes from "./header.module.css";
import { Deferred } from "~/components/Deferred";
import { PlainIconButton } from "~/components/PlainButton";
import { lazyPart } from "~/lib/lazy-part";

const QrCodeDialog = lazyPart(() => import("./QrCodeDialog").then((m) => ({ default: m.QrCodeDialog })));

export const LOGOUT_RELOAD_MS = 1000;

/** Spec §4 logout: the server ends the session; open tags and route state go; sign-in page, reload after 1 s. */
export function useLogout() {
  const navigate = useNavigate();
  return async function logout() {
    await endSession();
    writeBrowserCookie(TAGS_COOKIE, null);
    writeBrowserCookie(SUBSYSTEM_COOKIE, null);
    window.localStorage.removeItem(ACTIVE_MENU_KEY);
    navigate("/login", { replace: true });
    setTimeout(() => window.location.reload(), LOGOUT_RELOAD_MS);
  };
}

export function UserMenu({ user, dark }: { user: PageUser; dark: boolean }) {
  const [qrOpened, setQrOpened] = useState(false);
  const logout = useLogout();
  const name = user.realName || user.userName;
  return (
    <>
      <LiveMenu
        position="bottom-end"
        width={180}
        withinPortal
        shadow="md"
        target={
          <UnstyledButton className={classes.user} data-dark={dark || undefined} aria-label={`${name}，用户菜单`}>
            <Avatar src={user.avatar || null} size={30} radius="xl" color="brand" variant="filled" alt="">
              {/* Drawn by CSS: as text, the initial would be visible text missing from the button's name (WCAG 2.5.3). */}
              <span className={classes.initial} data-initial={name.slice(0, 1).toUpperCase()} />
            </Avatar>
            <Text size="sm" className={classes.userName} data-testid="current-user">
              {name}
            </Text>
            <IconChevronDown size={14} />
          </UnstyledButton>
        }
      >
        <Menu.Dropdown>
          <Menu.Item component={Link} to="/profile/index" leftSection={<IconUser size={16} />}>
            个人中心
          </Menu.Item>
          <Menu.Item component={Link} to={CHANGE_PASSWORD_PATH} leftSection={<IconKey size={16} />}>
            {t.shell.changePassword}
          </Menu.Item>
          <Menu.Item leftSection={<IconQrcode size={16} />} onClick={() => setQrOpened(true)}>
            小程序二维码
          </Menu.Item>
          <Menu.Item component={Link} to={HOME_PATH} leftSection={<IconHome size={16} />}>
            {t.shell.home}
          </Menu.Item>
        </Menu.Dropdown>
      </LiveMenu>
      <Form
        method="post"
        action="/logout"
        reloadDocument
        onSubmit={(event) => {
          event.preventDefault();
          logout();
        }}
      >
        <LiveTooltip label={t.shell.logout}>
          <PlainIconButton type="submit" className={classes.iconButton} data-dark={dark || undefined} aria-label={t.shell.logout}>
            <IconLogout size={20} />
          </PlainIconButton>
        </LiveTooltip>
      </Form>
      <Deferred when={qrOpened}>
        <QrCodeDialog opened={qrOpened} onClose={() => setQrOpened(false)} />
      </Deferred>
    </>
  );
}
