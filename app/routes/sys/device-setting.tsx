import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { ActionIcon, Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconPlus, IconTrash } from "~/components/icons";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { apiPath } from "../../../resources/define";
import { device } from "../../../resources/sys/device";
import { deviceParamList } from "../../../resources/sys/deviceParams";
import { z } from "../../../resources/z";
import type { Route } from "./+types/device-setting";
import { apiCall } from "~/lib/api.server";
import { formReply } from "~/lib/api-answer.server";
import { t } from "~/lib/messages";
import { flashCookie } from "~/lib/session.server";
import { ts } from "~/lib/sys-messages";
import { useFocusOnRefusal } from "~/lib/form-focus";

interface DeviceParams {
  id: number;
  deviceCode: string;
  deviceName: string;
  updatedAt: number;
  params: Array<{ paramKey: string; paramValue: string; remark: string | null }>;
}

const LIST = `${device.screenBase}/${device.screen}/index`;
const schema = z.object({ updatedAt: z.coerce.number().int(), params: deviceParamList.default([]) });

/** Spec §2 device setting/{id}: the device's parameters as key/value rows. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const result = await apiCall<DeviceParams>(request, context, "GET", apiPath(device, "getParams"), { query: { id: params.id } });
  if (result.status === 404 || result.status === 400) throw data(null, { status: 404 });
  if (result.status !== 200) throw data(null, { status: 401 });
  return result.data;
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await apiCall(request, context, "POST", apiPath(device, "saveParams"), { body: { id: Number(params.id), ...submission.value } });
  if (result.status !== 200) return formReply(submission, result);
  return redirect(LIST, { headers: { "Set-Cookie": flashCookie(ts.saved) } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData ? ts.device.title(loaderData.deviceName, loaderData.deviceCode) : ""} - ${t.appTitle}` }];
}

export default function DeviceSetting({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `device-setting-${loaderData.id}-${loaderData.updatedAt}`,
    lastResult: actionData,
    defaultValue: {
      updatedAt: String(loaderData.updatedAt),
      params: loaderData.params.map((p) => ({ paramKey: p.paramKey, paramValue: p.paramValue, remark: p.remark ?? "" })),
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const focusOnRefusal = useFocusOnRefusal(actionData);
  const rows = fields.params.getFieldList();
  return (
    <Stack gap="md" maw={960}>
      <Title order={3}>{ts.device.title(loaderData.deviceName, loaderData.deviceCode)}</Title>
      <Text size="sm" c="dimmed">
        {ts.device.hint}
      </Text>
      <Paper withBorder radius="md" p="lg">
        <Form method="post" {...focusOnRefusal(getFormProps(form))}>
          <Stack gap="sm">
            {form.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {form.errors[0]}
              </Alert>
            )}
            {fields.params.errors?.[0] && (
              <Alert color="red" variant="light" role="alert">
                {fields.params.errors[0]}
              </Alert>
            )}
            <input {...getInputProps(fields.updatedAt, { type: "hidden" })} />
            {rows.map((row, index) => {
              const param = row.getFieldset();
              return (
                <Group key={row.key} align="flex-start" gap="sm" wrap="nowrap" data-testid="device-param">
                  <TextInput
                    {...getInputProps(param.paramKey, { type: "text" })}
                    label={ts.device.key}
                    withAsterisk
                    error={param.paramKey.errors?.[0]}
                    style={{ flex: 2 }}
                  />
                  <TextInput {...getInputProps(param.paramValue, { type: "text" })} label={ts.device.value} error={param.paramValue.errors?.[0]} style={{ flex: 3 }} />
                  <TextInput {...getInputProps(param.remark, { type: "text" })} label={ts.device.remark} error={param.remark.errors?.[0]} style={{ flex: 3 }} />
                  <ActionIcon
                    {...form.remove.getButtonProps({ name: fields.params.name, index })}
                    type="submit"
                    variant="subtle"
                    color="red"
                    mt={26}
                    aria-label={`${ts.device.remove} ${index + 1}`}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              );
            })}
            {!rows.length && (
              <Text size="sm" c="dimmed">
                {ts.device.empty}
              </Text>
            )}
            <Group justify="space-between" mt="md">
              <Button
                {...form.insert.getButtonProps({ name: fields.params.name, defaultValue: { paramKey: "", paramValue: "", remark: "" } })}
                type="submit"
                variant="light"
                leftSection={<IconPlus size={16} />}
              >
                {ts.device.add}
              </Button>
              <Group gap="sm">
                <Button component={Link} to={LIST} variant="default">
                  {ts.cancel}
                </Button>
                <Button type="submit" loading={navigation.state === "submitting"}>
                  {ts.save}
                </Button>
              </Group>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
