import { AppShell, Table, Text } from "@mantine/core";
import { useLoaderData } from "react-router";

const COLUMNS = ["用户名", "姓名", "工号", "手机号", "性别", "所属机构", "状态", "创建时间"];

/** Twenty rows shaped like the users list's, made in code: no session, no database. */
export function loader() {
  return {
    rows: Array.from({ length: 20 }, (_, i) => {
      const n = String(4000 + i).padStart(6, "0");
      return [`bench${n}`, `职工${n}`, `U${n}`, `1380000${String(i).padStart(4, "0")}`, i % 2 ? "女" : "男", "压测餐厅", i % 7 ? "正常" : "停用", "2026-11-28 09:00:00"];
    }),
  };
}

export default function Users() {
  const { rows } = useLoaderData<typeof loader>();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 210, breakpoint: "md" }} padding="md">
      <AppShell.Header>
        <Text p="md">用户管理</Text>
      </AppShell.Header>
      <AppShell.Navbar p="md">
        <Text>用户管理</Text>
      </AppShell.Navbar>
      <AppShell.Main>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map((c) => (
                <Table.Th key={c}>{c}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row[0]}>
                {row.map((cell, i) => (
                  <Table.Td key={COLUMNS[i]}>{cell}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </AppShell.Main>
    </AppShell>
  );
}
