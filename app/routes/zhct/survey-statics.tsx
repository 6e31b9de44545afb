// Charts (and Recharts under them) are imported by this page only, so every other page's bundle stays without them
// (decision 019).
import "@mantine/charts/styles.css";
import { BarChart } from "@mantine/charts";
import { Alert, Badge, Button, Card, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { IconDownload, IconSearch } from "~/components/icons";
import { data, Form } from "react-router";
import { permissionCode } from "../../../resources/define";
import { dictLabel } from "../../../resources/dicts";
import { satisfactionSurveStatics } from "../../../resources/zhct/surveys";
import type { Route } from "./+types/survey-statics";
import { Permission } from "~/components/shell/Permission";
import { apiCall } from "~/lib/api.server";
import { requirePermitted } from "~/lib/api-answer.server";
import { useDicts } from "~/lib/dicts";
import { t } from "~/lib/messages";
import { requireUserInfo } from "~/lib/session.server";

const STATICS = "/api/v1/zhct/satisfactionSurveStatics";

type Statics = {
  surveys: Array<{ id: number; surveyName: string; beginDate: string; endDate: string }>;
  survey: { id: number; surveyName: string; restaurantName: string | null; beginDate: string; endDate: string; entityStatus: string } | null;
  answerCount: number;
  questions: Array<{ id: number; questionTitle: string; selectType: string; options: Array<{ id: number; optionText: string; count: number; percent: number }> }>;
};

/** The survey chosen lives in the URL (a GET form), so a result is a bookmark and the page works before scripts load. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUserInfo(request, context);
  const surveyId = new URL(request.url).searchParams.get("surveyId") ?? "";
  const result = await apiCall<Statics>(request, context, "GET", `${STATICS}/findPage`, { query: surveyId ? { surveyId } : {} });
  requirePermitted(result);
  if (result.status === 404) throw data(result.message, { status: 404 });
  if (result.status !== 200) return { statics: null, error: result.message };
  return { statics: result.data, error: null };
}

export function meta() {
  return [{ title: `满意度统计 - ${t.appTitle}` }];
}

function QuestionResult({ index, question, total }: { index: number; question: Statics["questions"][number]; total: number }) {
  const dicts = useDicts();
  return (
    <Card withBorder radius="md" padding="lg" data-testid="survey-result">
      <Group justify="space-between" align="flex-start" mb="sm" wrap="nowrap">
        <Text fw={600}>
          {index + 1}. {question.questionTitle}
        </Text>
        <Badge variant="light" color={question.selectType === "1" ? "blue" : "grape"}>
          {dictLabel(dicts, "selectType", question.selectType)}
        </Badge>
      </Group>
      <BarChart
        h={Math.max(140, question.options.length * 44)}
        data={question.options.map((o) => ({ option: o.optionText, 人数: o.count }))}
        dataKey="option"
        orientation="vertical"
        yAxisProps={{ width: 96 }}
        xAxisProps={{ allowDecimals: false, domain: [0, Math.max(total, 1)] }}
        series={[{ name: "人数", color: "blue.6" }]}
        gridAxis="x"
        barChartProps={{ margin: { right: 24 } }}
        withTooltip={false}
        barProps={{ radius: 4, label: { position: "right", fontSize: 12 } }}
      />
      <Table mt="sm" withTableBorder striped fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>选项</Table.Th>
            <Table.Th ta="right">人数</Table.Th>
            <Table.Th ta="right">占比</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {question.options.map((o) => (
            <Table.Tr key={o.id}>
              <Table.Td>{o.optionText}</Table.Td>
              <Table.Td ta="right">{o.count}</Table.Td>
              <Table.Td ta="right">{o.percent.toFixed(1)}%</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {question.selectType === "2" && (
        <Text size="xs" c="dimmed" mt={6}>
          多选题每人可选多项，占比合计可超过 100%。
        </Text>
      )}
    </Card>
  );
}

export default function SurveyStatics({ loaderData }: Route.ComponentProps) {
  const { statics, error } = loaderData;
  const dicts = useDicts();
  const survey = statics?.survey;
  return (
    <Stack gap="md">
      <Title order={3}>满意度统计</Title>
      <Paper withBorder radius="md" p="md">
        <Form method="get">
          <Group align="flex-end">
            <NativeSelect
              name="surveyId"
              label="问卷"
              defaultValue={survey ? String(survey.id) : ""}
              data={statics?.surveys.length ? statics.surveys.map((s) => ({ value: String(s.id), label: `${s.surveyName}（${s.beginDate} 至 ${s.endDate}）` })) : [{ value: "", label: "暂无问卷" }]}
              miw={360}
            />
            <Button type="submit" leftSection={<IconSearch size={16} />}>
              查询
            </Button>
            {survey && (
              <Permission code={permissionCode(satisfactionSurveStatics, "view")}>
                <Button component="a" href={`${STATICS}/export?surveyId=${survey.id}`} variant="default" leftSection={<IconDownload size={16} />}>
                  导出 Excel
                </Button>
              </Permission>
            )}
          </Group>
        </Form>
      </Paper>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      {statics && !survey && (
        <Text c="dimmed" size="sm">
          还没有满意度调查。请先在“满意度调查”中新增问卷并发布。
        </Text>
      )}
      {survey && (
        <>
          <Paper withBorder radius="md" p="md">
            <Group gap="xl">
              <div>
                <Text size="xs" c="dimmed">
                  问卷
                </Text>
                <Text fw={600}>{survey.surveyName}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  餐厅
                </Text>
                <Text>{survey.restaurantName ?? "—"}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  开放期间
                </Text>
                <Text>
                  {survey.beginDate} 至 {survey.endDate}
                </Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  状态
                </Text>
                <Badge variant="light" color={survey.entityStatus === "1" ? "green" : "gray"}>
                  {dictLabel(dicts, "entityStatus", survey.entityStatus)}
                </Badge>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  答卷数
                </Text>
                <Text fw={700} size="lg" data-testid="answer-count">
                  {statics.answerCount}
                </Text>
              </div>
            </Group>
          </Paper>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
            {statics.questions.map((q, i) => (
              <QuestionResult key={q.id} index={i} question={q} total={statics.answerCount} />
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
