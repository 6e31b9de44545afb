import { useCallback, useEffect, useRef, type FormEvent } from "react";

/**
 * After a refused submit, conform focuses the first field in error by its name. A picker (date, relation, upload)
 * carries its name on a hidden input, so the focus would stay where it was; this moves it to the first control the
 * form marks invalid (`aria-invalid`), unless the focus is already on one.
 */
export function focusFirstInvalid(form: HTMLFormElement | null) {
  if (!form) return;
  const active = document.activeElement;
  if (active instanceof HTMLElement && form.contains(active) && active.getAttribute("aria-invalid") === "true") return;
  form.querySelector<HTMLElement>('[aria-invalid="true"]:not([type="hidden"])')?.focus();
}

/** Conform's name for the buttons that add, remove or reorder list items: their submit is not a save. */
const INTENT = "__intent__";

/**
 * For a hand-written conform form: after a save refused in the browser or by the server (`lastResult` changes), the
 * focus goes to the first invalid control. Wraps the form's props (`<Form {...focusOnRefusal(getFormProps(form))}>`),
 * keeping conform's own submit handler first.
 */
export function useFocusOnRefusal(lastResult: unknown) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (lastResult) focusFirstInvalid(ref.current);
  }, [lastResult]);
  return useCallback(
    <P extends { onSubmit?: (event: FormEvent<HTMLFormElement>) => void }>(props: P) => ({
      ...props,
      ref,
      onSubmit(event: FormEvent<HTMLFormElement>): void {
        props.onSubmit?.(event);
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        if (!event.defaultPrevented || submitter?.getAttribute("name") === INTENT) return;
        const form = event.currentTarget;
        // After conform's own focus and the render that marks the fields invalid.
        requestAnimationFrame(() => focusFirstInvalid(form));
      },
    }),
    [],
  );
}
