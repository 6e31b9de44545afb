import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { IconDownload, IconFileImport, IconListCheck } from "~/components/icons";
import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { apiPath, type ResourceDef } from "../../../resources/define";
import type { ImportReport } from "../../../resources/imports";
import { formatCount } from "~/lib/format";

interface Props {
  def: ResourceDef;
  report: ImportReport | null;
  error: string | null;
  closeHref: string;
}

/**
 * The import dialog of a list (`?import=1`): the template, the file, the dry run's report, then the import. A plain
 * multipart form, so it works before the scripts load; after a check the chosen file stays chosen for the import.
 */
export function ImportPanel({ def, report, error, closeHref }: Props) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent")?.toString().startsWith("import");
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const checkedClean = report?.dryRun && report.invalid === 0;
  return (
    <Paper ref={ref} tabIndex={-1} withBorder radius="md" p="md" role="dialog" aria-labelledby="import-title" data-testid="import-panel">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4} id="import-title">
            导入{def.title}
          </Title>
          <Button component={Link} to={closeHref} variant="subtle" size="xs">
            关闭
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          1. 下载模板，按第 2 个工作表“填写说明”填写；2. 选择文件并检查，检查不会写入任何数据；3. 全部正确后确认导入（全部成功或全部不导入）。
        </Text>
        <Group>
          <Button component="a" href={apiPath(def, "importTemplate")} download variant="default" leftSection={<IconDownload size={16} />}>
            下载导入模板
          </Button>
        </Group>
        <Form method="post" encType="multipart/form-data">
          <Stack gap="xs">
            <label htmlFor="import-file">
              <Text size="sm" fw={500} component="span">
                选择文件（.xlsx，不超过 10M）
              </Text>
            </label>
            <input id="import-file" name="file" type="file" accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" required />
            <Group gap="xs">
              <Button type="submit" name="intent" value="importCheck" variant="default" loading={busy} leftSection={<IconListCheck size={16} />}>
                检查
              </Button>
              <Button type="submit" name="intent" value="import" color={checkedClean ? undefined : "gray"} loading={busy} leftSection={<IconFileImport size={16} />}>
                {checkedClean ? "确认导入" : "导入"}
              </Button>
            </Group>
          </Stack>
        </Form>
        {error && (
          <Alert color="red" variant="light" role="alert" data-testid="import-error">
            {error}
          </Alert>
        )}
        {report && (
          <Alert color={report.invalid ? "orange" : "green"} variant="light" role="status" data-testid="import-summary">
            {report.invalid
              ? `共 ${formatCount(report.total)} 行，${formatCount(report.valid)} 行正确，${formatCount(report.invalid)} 行有误${report.dryRun ? "" : "，未导入任何数据"}。请修改后重新选择文件。`
              : `检查通过：共 ${formatCount(report.total)} 行，可以导入。`}
          </Alert>
        )}
        {report && report.errors.length > 0 && (
          <Table striped withTableBorder data-testid="import-errors" aria-label="有误的行">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={80}>行号</Table.Th>
                <Table.Th>原因</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.errors.map((problem) => (
                <Table.Tr key={problem.row}>
                  <Table.Td>{problem.row}</Table.Td>
                  <Table.Td>{problem.reasons.join("；")}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {report?.errorsCapped && <Text size="sm">只列出前 {report.errors.length} 行。</Text>}
      </Stack>
    </Paper>
  );
}
