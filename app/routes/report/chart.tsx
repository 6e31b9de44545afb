import { BarChart, LineChart, PieChart } from "@mantine/charts";
import { ColorSwatch, Group, Stack, Text } from "@mantine/core";
import { dictLabel, type DictOption } from "../../../resources/dicts";
import type { ReportDef } from "../../../resources/report/index";

type Cell = string | number | null;
const COLORS = ["blue.6", "teal.6", "orange.6", "grape.6", "red.6", "cyan.6", "lime.6", "indigo.6"];

/**
 * A report's chart (its declaration's `chart`), drawn from `chartPoints`. The report page
 * imports this module only when its report has a chart, so @mantine/charts and recharts (~120 KB gzip) load with
 * those pages and nowhere else (decision 019).
 */
export default function ReportChart({ def, points, dicts }: { def: ReportDef; points: Array<Record<string, Cell>>; dicts: Record<string, DictOption[]> }) {
  const chart = def.chart;
  if (!chart) return null;
  const xColumn = def.columns.find((c) => c.key === chart.x);
  const series = chart.series.map((key) => def.columns.find((c) => c.key === key)).filter((c) => c !== undefined);
  const label = (value: Cell) => (xColumn?.kind === "enum" && xColumn.dict ? dictLabel(dicts, xColumn.dict, value) : String(value ?? ""));
  const data: Array<Record<string, Cell>> = points.map((p) => ({ ...p, x: label(p.x) }));
  // Counts (meals, bookings) are whole numbers, money is yuan: the unit follows what the chart draws.
  const money = series.some((s) => s.kind === "money");
  const yuan = money ? (value: number) => value.toLocaleString("zh-CN", { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : (value: number) => value.toLocaleString("zh-CN", { maximumFractionDigits: 0 });
  return (
    <Stack gap="xs" data-testid="report-chart">
      <Text fw={600} size="sm">
        {chart.title}
        {money ? "（元）" : ""}
      </Text>
      {chart.kind === "pie" ? (
        <PieSlices slices={data.map((p, i) => ({ name: String(p.x), value: Math.abs(Number(p[series[0].key] ?? 0)), color: COLORS[i % COLORS.length] }))} format={yuan} />
      ) : chart.kind === "line" ? (
        <LineChart
          h={260}
          data={data}
          dataKey="x"
          valueFormatter={yuan}
          yAxisProps={{ allowDecimals: money }}
          // Recharts draws a line's dots only once its animation has ended, and a line of one point never animates to
          // an end: a single month's price would be drawn as nothing (recharts issue 149).
          lineProps={data.length === 1 ? { isAnimationActive: false } : undefined}
          series={series.map((s, i) => ({ name: s.key, label: s.label, color: COLORS[i % COLORS.length] }))}
        />
      ) : (
        <BarChart h={260} maxBarWidth={56} data={data} dataKey="x" valueFormatter={yuan} yAxisProps={{ allowDecimals: money }} series={series.map((s, i) => ({ name: s.key, label: s.label, color: COLORS[i % COLORS.length] }))} />
      )}
    </Stack>
  );
}

/** A share: the pie with its legend (name, amount, percent) beside it. Consumption is negative in the ledger, so a share is of magnitudes. */
function PieSlices({ slices, format }: { slices: Array<{ name: string; value: number; color: string }>; format: (n: number) => string }) {
  const sum = slices.reduce((s, p) => s + p.value, 0) || 1;
  return (
    <Group justify="center" gap={48} wrap="wrap">
      {/* The legend beside it says in text what each slice draws; recharts' sectors are images without a name,
          and its pie layer takes focus (rootTabIndex 0) for keyboard tooltips the legend makes needless. */}
      <div aria-hidden="true">
        <PieChart size={200} w={240} h={240} withLabels labelsPosition="inside" labelsType="percent" withTooltip valueFormatter={format} data={slices} pieProps={{ rootTabIndex: -1 }} />
      </div>
      <Stack gap={6}>
        {slices.map((p) => (
          <Group key={p.name} gap="xs">
            <ColorSwatch color={`var(--mantine-color-${p.color.replace(".", "-")})`} size={12} />
            <Text size="sm" w={90}>
              {p.name}
            </Text>
            <Text size="sm" ta="right" w={100}>
              {format(p.value)}
            </Text>
            <Text size="sm" c="dimmed" ta="right" w={56}>
              {((p.value / sum) * 100).toFixed(1)}%
            </Text>
          </Group>
        ))}
      </Stack>
    </Group>
  );
}
