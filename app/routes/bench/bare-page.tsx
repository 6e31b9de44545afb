import { AppShell, Table, Text } from "@mantine/core";
import { data } from "react-router";
import { apiPath, listFields } from "../../../resources/define";
import { findResource } from "../../../resources/index";
import type { Route } from "./+types/bare-page";
import { FieldValue } from "~/components/resource/cells";
import { apiCall } from "~/lib/api.server";
import { useDicts } from "~/lib/dicts";

/**
 * The benchmark's second yardstick (issue 17): a bare page — a Mantine AppShell with a header and a navbar and a
 * Table of the same rows as a list screen, nothing else — outside our shell, so the shell's own cost shows.
 * Served only when CANTEEN_BENCH=1.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const def = findResource(`${params.module}/${params.entity}`);
  if (process.env.CANTEEN_BENCH !== "1" || !def) throw data(null, { status: 404 });
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const page = await apiCall<{ records: Array<Record<string, unknown> & { id: number }> }>(request, context, "GET", apiPath(def, "findPage"), { query });
  return { def, records: page.data?.records ?? [] };
}

export default function BarePage({ loaderData }: Route.ComponentProps) {
  const { def } = loaderData;
  const dicts = useDicts();
  const fields = listFields(def);
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 210, breakpoint: "md" }} padding="md">
      <AppShell.Header>
        <Text p="md">{def.title}</Text>
      </AppShell.Header>
      <AppShell.Navbar p="md">
        <Text>{def.title}</Text>
      </AppShell.Navbar>
      <AppShell.Main>
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
      </AppShell.Main>
    </AppShell>
  );
}
