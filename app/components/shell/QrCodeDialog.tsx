import { Anchor, Center, Image, Loader, Modal, Stack, Text } from "@mantine/core";
import { IconDownload } from "~/components/icons";
import { useEffect, useState } from "react";
import { request } from "~/lib/request";

export const QR_CODE_PATH = "/api/v1/sys/tenant/getWeappQRCode";

/** Spec §2: the mini-program code of the tenant, titled with the tenant's name, with a download link. */
export function QrCodeDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [tenantName, setTenantName] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!opened) return;
    setVersion(Date.now());
    request<{ tenantName: string }>("GET", "/api/v1/sys/tenant/getInfo", { loading: false, quiet: true })
      .then((tenant) => setTenantName(tenant.tenantName))
      .catch(() => undefined);
  }, [opened]);
  const src = `${QR_CODE_PATH}?v=${version}`;
  return (
    <Modal opened={opened} onClose={onClose} centered size={380} title={<Text fw={600}>{tenantName ?? "小程序二维码"}</Text>} data-testid="qr-dialog">
      <Stack align="center" gap="sm">
        {opened && version ? (
          <Image src={src} alt={`${tenantName ?? ""}小程序二维码`} w={240} h={240} fit="contain" radius="sm" data-testid="qr-image" />
        ) : (
          <Center h={240}>
            <Loader />
          </Center>
        )}
        <Text size="sm" c="dimmed">
          使用微信扫一扫，打开本单位的点餐小程序
        </Text>
        <Anchor href={src} download={`${tenantName ?? "weapp"}-小程序码.png`} size="sm">
          <IconDownload size={14} style={{ verticalAlign: -2, marginRight: 4 }} />
          下载二维码
        </Anchor>
      </Stack>
    </Modal>
  );
}
