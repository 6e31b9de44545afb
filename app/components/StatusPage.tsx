import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { t } from "~/lib/messages";

export function StatusPage({ code, title, text }: { code: number; title: string; text: string }) {
  return (
    <Center py={80}>
      <Stack align="center" gap="sm">
        <Title order={1} fz={72} c="brand.3">
          {code}
        </Title>
        <Title order={3}>{title}</Title>
        <Text c="dimmed">{text}</Text>
        <Button component={Link} to="/" mt="md">
          {t.shell.backHome}
        </Button>
      </Stack>
    </Center>
  );
}
