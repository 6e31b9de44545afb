import { Button, Group, Pagination, Text } from "@mantine/core";
import { PAGE_SIZES } from "../../../resources/define";

const CONTROL_LABELS = { first: "第一页", previous: "上一页", next: "下一页", last: "最后一页" };

/**
 * Page links and page-size links: paging works before JavaScript loads. They are plain anchors, routed in the app
 * by the list's `useAppLinkNavigation`.
 */
export function ListPagination({
  total,
  capped,
  pageNum,
  pageSize,
  hrefFor,
}: {
  total: number;
  /** The server stopped counting: there are more rows than `total`. */
  capped?: boolean;
  pageNum: number;
  pageSize: number;
  hrefFor: (changes: Record<string, string | null>) => string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Group justify="space-between" p="sm" wrap="wrap" gap="sm">
      <Group gap={6}>
        <Text size="sm" c="dimmed">
          共 {total}{capped ? "+" : ""} 条 · 每页
        </Text>
        {PAGE_SIZES.map((size) => (
          <Button
            key={size}
            component="a"
            href={hrefFor({ pageSize: String(size), pageNum: null })}
            data-app-link
            size="compact-xs"
            variant={size === pageSize ? "filled" : "subtle"}
            aria-current={size === pageSize ? "true" : undefined}
            aria-label={`每页 ${size} 条`}
          >
            {size}
          </Button>
        ))}
        <Text size="sm" c="dimmed">
          条
        </Text>
      </Group>
      <Pagination
        total={pages}
        value={Math.min(pageNum, pages)}
        size="sm"
        withEdges
        getItemProps={(page) => ({ component: "a", href: hrefFor({ pageNum: String(page) }), "data-app-link": true, "aria-label": `第 ${page} 页` })}
        getControlProps={(control) => {
          const target = { first: 1, previous: pageNum - 1, next: pageNum + 1, last: pages }[control];
          const disabled = target < 1 || target > pages || target === pageNum;
          // The controls show only arrows: a screen reader needs their names, disabled or not.
          const label = { "aria-label": CONTROL_LABELS[control] };
          return disabled ? label : { ...label, component: "a", href: hrefFor({ pageNum: String(target) }), "data-app-link": true };
        }}
      />
    </Group>
  );
}
