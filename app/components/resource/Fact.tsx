import { Text } from "@mantine/core";

/** One labelled fact of a record on a workflow page (审批、取消): 标签：值. */
export function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Text size="sm" component="div">
      <Text span c="dimmed">{label}：</Text>
      {children}
    </Text>
  );
}
