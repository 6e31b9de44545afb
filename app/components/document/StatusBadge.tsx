import { Badge } from "@mantine/core";
import cells from "~/components/resource/cells.module.css";

export interface StatusView {
  value: string;
  label: string;
  color: string;
}

/**
 * A document's status in its declared colour. In a list it is the list's plain badge (decision 031: a list draws
 * hundreds of cells, not a Mantine component each); on a page, Mantine's.
 */
export function StatusBadge({ status, plain }: { status: StatusView; plain?: boolean }) {
  if (plain) {
    const color = `var(--mantine-color-${status.color}-light-color)`;
    return (
      <span className={cells.badge} style={{ background: `var(--mantine-color-${status.color}-light)`, color }} data-status={status.value}>
        {status.label}
      </span>
    );
  }
  return (
    <Badge color={status.color} variant="light" size="lg" data-testid="document-status" data-status={status.value}>
      {status.label}
    </Badge>
  );
}

/** The declared status of a value, or the value itself in gray (a status the declaration no longer has). */
export function statusIn(statuses: readonly StatusView[], value: unknown): StatusView {
  return statuses.find((s) => s.value === String(value)) ?? { value: String(value ?? ""), label: String(value ?? ""), color: "gray" };
}
