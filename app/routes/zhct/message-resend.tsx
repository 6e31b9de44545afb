import { Alert, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconSend } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { apiPath } from "../../../resources/define";
import { userInfoSendMessage as def } from "../../../resources/zhct/messages";
import type { Route } from "./+types/message-resend";
import { apiCall } from "~/lib/api.server";
import { errorReply, requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { formatTime } from "~/lib/format";
import { t } from "~/lib/messages";
import { flashCookie, requireUserInfo } from "~/lib/session.server";

const LIST_PATH = `${def.screenBase}/${def.screen}/index`;

interface Message {
  id: number;
  recipientName: string;
  phone: string | null;
  content: string;
  state: string;
  attempts: number;
  lastError: string | null;
  createdAt: number;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const result = await apiCall<Message>(request, context, "GET", apiPath(def, "getInfo"), { query: { id: params.id } });
  requirePermitted(result);
  if (result.status !== 200) throw data(result.message, { status: 404 });
  return { message: result.data };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const result = await apiCall(request, context, "POST", apiPath(def, "resend"), { body: { id: Number(params.id) } });
  if (result.status !== 200) return errorReply(result);
  return redirect(LIST_PATH, { headers: { "Set-Cookie": flashCookie("已重新加入发送队列") } });
}

export function meta() {
  return [{ title: `重发短信通知 - ${t.appTitle}` }];
}

/** 重发: a failed message goes back to the outbox; the dispatcher sends it within seconds. */
export default function MessageResend({ loaderData, actionData }: Route.ComponentProps) {
  const { message } = loaderData;
  const dicts = useDicts();
  const navigation = useNavigation();
  const stateLabel = dicts.messageState?.find((o) => o.value === message.state)?.label ?? message.state;
  const failed = message.state === "2";
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={3}>重发短信通知</Title>
        <Button component={Link} to={LIST_PATH} variant="default" leftSection={<IconArrowLeft size={16} />}>
          返回列表
        </Button>
      </Group>
      <Card withBorder radius="md">
        <Stack gap={6}>
          <Text size="sm">接收人：{message.recipientName}{message.phone ? `（${message.phone}）` : ""}</Text>
          <Text size="sm">内容：{message.content}</Text>
          <Text size="sm">状态：{stateLabel}，已发送 {message.attempts} 次</Text>
          {message.lastError && <Text size="sm">失败原因：{message.lastError}</Text>}
          <Text size="sm">创建时间：{formatTime(message.createdAt)}</Text>
        </Stack>
      </Card>
      {actionData?.error && (
        <Alert color="red" variant="light" role="alert">
          {actionData.error}
        </Alert>
      )}
      {failed ? (
        <Form method="post">
          <Button type="submit" loading={navigation.state === "submitting"} leftSection={<IconSend size={16} />}>
            重发
          </Button>
        </Form>
      ) : (
        <Alert color="gray" variant="light">
          只有发送失败的消息可以重发。
        </Alert>
      )}
    </Stack>
  );
}
