import { Pagination } from "@mantine/core";
import { usePagination } from "@mantine/hooks";
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconChevronsRight } from "~/components/icons";
import { PAGE_SIZES } from "../../../resources/define";
import classes from "./ListPagination.module.css";
import { formatCount } from "~/lib/format";

const CONTROLS = [
  { key: "first", label: "第一页", Icon: IconChevronsLeft },
  { key: "previous", label: "上一页", Icon: IconChevronLeft },
  { key: "next", label: "下一页", Icon: IconChevronRight },
  { key: "last", label: "最后一页", Icon: IconChevronsRight },
] as const;

/**
 * Page links and page-size links: paging works before JavaScript loads. They are plain anchors with Mantine's
 * pagination classes (a Mantine `Pagination` drew each of its dozen controls as a component with its own inline
 * variables: 10 KB of a 20-row list page), routed in the app by the list's `useAppLinkNavigation` on
 * their container.
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
  const active = Math.min(pageNum, pages);
  const { range } = usePagination({ total: pages, page: active, siblings: 1, boundaries: 1 });
  const target = { first: 1, previous: active - 1, next: active + 1, last: pages };
  const control = (key: keyof typeof target, label: string, Icon: (typeof CONTROLS)[number]["Icon"]) => {
    const page = target[key];
    // The controls show only arrows: a screen reader needs their names, disabled or not.
    return page < 1 || page > pages || page === active ? (
      <button key={key} type="button" className={Pagination.classes.control} disabled aria-label={label}>
        <Icon size={16} />
      </button>
    ) : (
      <a key={key} className={Pagination.classes.control} href={hrefFor({ pageNum: String(page) })} aria-label={label}>
        <Icon size={16} />
      </a>
    );
  };
  return (
    <div className={classes.bar}>
      <div className={classes.sizes}>
        <span>
          共 {formatCount(total)}
          {capped ? "+" : ""} 条 · 每页
        </span>
        {PAGE_SIZES.map((size) => (
          <a
            key={size}
            href={hrefFor({ pageSize: String(size), pageNum: null })}
            data-active={size === pageSize || undefined}
            aria-current={size === pageSize ? "true" : undefined}
            aria-label={`每页 ${size} 条`}
          >
            {size}
          </a>
        ))}
        <span>条</span>
      </div>
      <nav className={`${Pagination.classes.root} ${classes.pages}`} aria-label="分页">
        {CONTROLS.slice(0, 2).map(({ key, label, Icon }) => control(key, label, Icon))}
        {range.map((page, index) =>
          page === "dots" ? (
            <span key={`dots-${index}`} className={Pagination.classes.dots} aria-hidden>
              …
            </span>
          ) : (
            <a
              key={page}
              className={Pagination.classes.control}
              href={hrefFor({ pageNum: String(page) })}
                data-active={page === active || undefined}
              aria-current={page === active ? "page" : undefined}
              aria-label={`第 ${page} 页`}
            >
              {page}
            </a>
          ),
        )}
        {CONTROLS.slice(2).map(({ key, label, Icon }) => control(key, label, Icon))}
      </nav>
    </div>
  );
}
