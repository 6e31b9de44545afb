import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconLinkOff } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { apiPath, listFields, permissionCode } from "../../../resources/define";
import { dictLabel } from "../../../resources/dicts";
import { userAccountTable, userPlate } from "../../../resources/zhct/rooms";
import type { Route } from "./+types/binding-release";
import { Permission } from "~/components/shell/Permission";
import { apiCall } from "~/lib/api.server";
import { errorReply, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

/** 解绑 of one plate or table binding (the row link of both lists); the release endpoint holds the rules. */
const defs = { useraccounttable: userAccountTable, userplate: userPlate } as const;

function defOf(url: string) {
  const screen = new URL(url).pathname.split("/")[2] as keyof typeof defs;
  return defs[screen];
}

type Binding = Record<string, unknown> & { id: number; bindStatus: string; releasedAt: number | null };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const def = defOf(request.url);
  const result = await apiCall<Binding>(request, context, "GET", apiPath(def, "getInfo"), { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  return { screen: def.screen, binding: result.data };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const def = defOf(request.url);
  const result = await apiCall(request, context, "POST", apiPath(def, "release"), { body: { id: Number(params.id) } });
  if (result.status !== 200) return errorReply(result);
  return redirect(`${def.screenBase}/${def.screen}/index`, { headers: { "Set-Cookie": flashCookie("已解绑") } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  const def = loaderData ? defs[loaderData.screen as keyof typeof defs] : undefined;
  return [{ title: `解绑${def?.title ?? ""} - ${t.appTitle}` }];
}

export default function BindingRelease({ loaderData, actionData }: Route.ComponentProps) {
  const { binding } = loaderData;
  const def = defs[loaderData.screen as keyof typeof defs];
  const dicts = useDicts();
  const navigation = useNavigation();
  const bound = binding.bindStatus === "1";
  const shown = (name: string, type: string, dict?: string) => {
    const value = binding[name];
    if (binding[`${name}Label`] != null) return String(binding[`${name}Label`]);
    if (type === "datetime") return formatTime(value as number | string | null | undefined);
    if (dict) return dictLabel(dicts, dict, value);
    return value == null ? "" : String(value);
  };
  const listPath = `${def.screenBase}/${def.screen}/index`;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>解绑{def.title}</Title>
        <Button component={Link} to={listPath} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Card withBorder radius="md" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {listFields(def)
            .filter((f) => f.name !== "bindStatus")
            .map((f) => (
              <Text key={f.name} size="sm" component="div">
                <Text span c="dimmed">
                  {f.label}：
                </Text>
                {shown(f.name, f.type, f.dict) || "—"}
              </Text>
            ))}
          <Text size="sm" component="div">
            <Text span c="dimmed">
              绑定状态：
            </Text>
            <Badge color={bound ? "green" : "gray"} variant="light" data-testid="bind-status">
              {dictLabel(dicts, "bindStatus", binding.bindStatus)}
            </Badge>
          </Text>
        </SimpleGrid>
      </Card>
      {actionData?.error && (
        <Alert color="red" variant="light" role="alert">
          {actionData.error}
        </Alert>
      )}
      {bound ? (
        <Permission code={permissionCode(def, "release")}>
          <Form method="post">
            <Button type="submit" color="red" variant="light" loading={navigation.state === "submitting"} leftSection={<IconLinkOff size={16} />}>
              确认解绑
            </Button>
          </Form>
        </Permission>
      ) : (
        <Alert color="gray" variant="light">
          该绑定已于 {formatTime(binding.releasedAt)} 解绑。
        </Alert>
      )}
    </Stack>
  );
}
