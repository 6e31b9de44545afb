import type { SubmissionResult } from "@conform-to/react";
import { Paper, Stack, Title } from "@mantine/core";
import type { Route } from "./+types/form";
import { ResourceEditor } from "~/components/resource/ResourceEditor";
import { t } from "~/lib/messages";
import { loadForm, saveForm } from "~/lib/resource-form.server";
import { requireResource } from "~/lib/resource.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadForm(request, context, requireResource(request), params.id);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const def = requireResource(request);
  return saveForm(request, context, def, params.id ? "edit" : "create", await request.formData(), `${def.screenBase}/${def.screen}/index`);
}

export function meta({ loaderData }: Route.MetaArgs) {
  const def = loaderData?.def;
  return [{ title: `${loaderData?.mode === "edit" ? "编辑" : "新增"}${def?.title ?? ""} - ${t.appTitle}` }];
}

export default function ResourceForm({ loaderData, actionData }: Route.ComponentProps) {
  const { def, mode, record, prefill, options, sources } = loaderData;
  return (
    <Stack gap="md" maw={960}>
      <Title order={3}>
        {mode === "edit" ? "编辑" : "新增"}
        {def.title}
      </Title>
      <Paper withBorder radius="md" p="lg">
        <ResourceEditor
          def={def}
          formKey={loaderData.key}
          mode={mode}
          record={record}
          prefill={prefill}
          options={options}
          sources={sources}
          lastResult={actionData as SubmissionResult<string[]> | undefined}
          cancelTo={`${def.screenBase}/${def.screen}/index`}
        />
      </Paper>
    </Stack>
  );
}
