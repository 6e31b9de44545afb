import { Paper, Stack, Table, Title } from "@mantine/core";
import { data } from "react-router";
import { apiPath, listFields } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import type { Route } from "./+types/plain-list";
import { FieldValue } from "~/components/resource/cells";
import { apiCall } from "~/lib/api.server";
import { useDicts } from "~/lib/dicts";

/**
 * The benchmark's yardstick (`npm run bench`): the same rows as a list screen, in a plain Mantine Table.
 * Served only when CANTEEN_BENCH=1.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const def = findResource(`${params.module}/${params.entity}`);
  if (process.env.CANTEEN_BENCH !== "1" || !def) throw data(null, { status: 404 });
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const page = await apiCall<{ records: Array<Record<string, unknown> & { id: number }> }>(request, context, "GET", apiPath(def, "findPage"), { query });
  return { def, records: page.data?.records ?? [] };
}

export default function PlainList({ loaderData }: Route.ComponentProps) {
  const { def } = loaderData;
  const dicts = useDicts();
  const fields = listFields(def);
  return (
    <Stack>
      <Title order={3}>{def.title}</Title>
      <Paper withBorder radius="md">
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {fields.map((f) => (
                <Table.Th key={f.name}>{f.label}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {loaderData.records.map((record) => (
              <Table.Tr key={record.id}>
                {fields.map((f) => (
                  <Table.Td key={f.name}>
                    <FieldValue field={f} record={record} dicts={dicts} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
    </Stack>
  );
}
