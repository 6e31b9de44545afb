import { Alert, Button, Card, Group, Modal, Stack, Text, Textarea, Title } from "@mantine/core";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { useHydrated } from "~/lib/hydrated";
import { Form, Link, useLocation, useNavigation, useSearchParams, useSubmit } from "react-router";
import type { Icon } from "~/components/icons";

/** What a step's action answers when the API refused it: shown in the step, the typed reason kept. */
export interface ConfirmRefusal {
  error?: string | null;
  reasonError?: string | null;
  reason?: string;
  /** The step's own fields refused (出车里程): the step is drawn again with them and what was typed. */
  fieldErrors?: Record<string, string[] | undefined>;
}

export interface ConfirmActionProps {
  /** Names the step in the URL (`?confirm=<name>`), which opens it inline when JavaScript has not loaded. */
  name: string;
  /** The button and the dialog's title: 取消订单, 冲正, 注销. */
  title: string;
  /** What will happen, stated with its amounts and whom it concerns (退回 12.00 元到 张三 的账户). */
  summary: ReactNode;
  /** The confirming button's label: 确认取消订单. */
  confirmLabel: string;
  /** Asks for a reason under this label (取消原因), required and sent as `reason`. */
  reasonLabel?: string;
  /** Hidden values the action needs (an Idempotency-Key drawn for this page). */
  hidden?: Record<string, string>;
  /** More fields of the step (a new card's number). */
  children?: ReactNode;
  /** The action's refusal, if the last submit of this step was refused. */
  refusal?: ConfirmRefusal | null;
  color?: "red" | "orange" | "blue";
  icon?: Icon;
  /**
   * Confirms the submit of a form on the page whose fields the user typed (退款金额, 月份) instead of a button of its
   * own: that form's own button submits it, its action checks the values and answers what would happen (`review`)
   * without acting, and the step opens with that summary; its 确认 sends the same form again with `confirmed=<name>`
   * and the reason. The summary is the server's, so it names the diner and the amount as they would move.
   */
  form?: string;
  /** With `form`: the action's answer that the typed values are ready to confirm (a new object each time it answers). */
  review?: object | null;
}

/**
 * The one confirmation of an action that moves money or cannot be undone (decision 055): a button opens a Mantine
 * dialog saying what will happen, asking the reason where one is required, with 确认 and 返回. Nothing is sent until
 * 确认. Before JavaScript (or without it) the button asks for `?confirm=<name>` (a GET form), and the page draws the same
 * step inline instead of the dialog; a refused submit shows the step again with the message and the typed reason.
 */
export function ConfirmAction({ name, title, summary, confirmLabel, reasonLabel, hidden, children, refusal, color = "red", icon: ButtonIcon, form, review }: ConfirmActionProps) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  // A page drawn by the server without scripts shows the steps inline.
  const hydrated = useHydrated();
  const [opened, setOpened] = useState(false);
  // A completed action redirects (a new location): the dialog closes with it. A form's step follows its answers
  // instead (every submit ends on a new location): it opens on each one that the values are ready and closes on one
  // that they are not (余额不足).
  useEffect(() => {
    if (form) setOpened(Boolean(review));
    else setOpened(false);
  }, [form, review, location.key]);
  const inline = form
    ? !hydrated && Boolean(review)
    : !opened && (searchParams.get("confirm") === name || Boolean(refusal?.error || refusal?.reasonError) || Object.values(refusal?.fieldErrors ?? {}).some((e) => e?.length));
  const back = new URLSearchParams(searchParams);
  back.delete("confirm");
  const backTo = `${location.pathname}${back.size ? `?${back}` : ""}`;
  const step = (onBack: ReactNode, inDialog = false) => (
    <ConfirmStep name={name} form={form} inDialog={inDialog} summary={summary} confirmLabel={confirmLabel} reasonLabel={reasonLabel} hidden={hidden} refusal={refusal} color={color} onBack={onBack}>
      {children}
    </ConfirmStep>
  );
  return (
    <>
      {form && !inline ? null : inline ? (
        <Card withBorder radius="md" padding="lg" w="100%" data-testid={`confirm-${name}`}>
          <Title order={5} mb="sm">
            {title}
          </Title>
          {step(
            <Button component={Link} to={backTo} replace variant="default">
              返回
            </Button>,
          )}
        </Card>
      ) : (
        // A GET form's button: without scripts it asks for this page with ?confirm=<name>, which draws the step.
        <form method="get" action={location.pathname} style={{ display: "contents" }}>
          {[...back].map(([key, value]) => (
            <input key={key} type="hidden" name={key} value={value} />
          ))}
          <Button
            type="submit"
            name="confirm"
            value={name}
            color={color}
            leftSection={ButtonIcon ? <ButtonIcon size={16} /> : undefined}
            onClick={(event: React.MouseEvent) => {
              event.preventDefault();
              setOpened(true);
            }}
          >
            {title}
          </Button>
        </form>
      )}
      <Modal opened={opened} onClose={() => setOpened(false)} title={<Text fw={600}>{title}</Text>} centered size="md" data-testid={`confirm-dialog-${name}`}>
        {step(
          <Button variant="default" onClick={() => setOpened(false)}>
            返回
          </Button>,
          true,
        )}
      </Modal>
    </>
  );
}

function ConfirmStep({
  name,
  form,
  inDialog,
  summary,
  confirmLabel,
  reasonLabel,
  hidden,
  refusal,
  color,
  onBack,
  children,
}: Pick<ConfirmActionProps, "name" | "form" | "summary" | "confirmLabel" | "reasonLabel" | "hidden" | "refusal" | "color" | "children"> & { onBack: ReactNode; inDialog: boolean }) {
  const navigation = useNavigation();
  const submit = useSubmit();
  // Drawn in the page without scripts, a form's step belongs to that form (the `form` attribute): one submit carries
  // both. In the dialog its fields stay its own (the form's validation, which watches every field of its form, would
  // otherwise submit it natively as the reason loses focus), and 确认 sends the form's values with them.
  const attached = form && !inDialog ? form : undefined;
  const body = (
    <>
      {Object.entries(hidden ?? {}).map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} form={attached} />
      ))}
      <Stack>
        <Alert color={color === "blue" ? "blue" : "orange"} variant="light" data-testid="confirm-summary">
          {summary}
        </Alert>
        {refusal?.error && (
          <Alert color="red" variant="light" role="alert">
            {refusal.error}
          </Alert>
        )}
        {children}
        {reasonLabel && (
          <Textarea name="reason" form={attached} label={reasonLabel} withAsterisk required autosize minRows={2} maxLength={200} defaultValue={refusal?.reason ?? ""} error={refusal?.reasonError} data-autofocus />
        )}
        <Group justify="flex-end">
          {onBack}
          <Button type="submit" form={attached} name={form ? "confirmed" : undefined} value={form ? name : undefined} color={color} loading={navigation.state === "submitting"}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </>
  );
  if (attached) return <div>{body}</div>;
  if (!form) return <Form method="post">{body}</Form>;
  const confirmForm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = new FormData(document.getElementById(form) as HTMLFormElement);
    for (const [key, value] of new FormData(event.currentTarget)) values.set(key, value);
    values.set("confirmed", name);
    void submit(values, { method: "post" });
  };
  return <form onSubmit={confirmForm}>{body}</form>;
}
