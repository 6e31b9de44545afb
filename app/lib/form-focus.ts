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
