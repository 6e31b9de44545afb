/** The list URL with some parameters changed (null removes one); a pending delete confirmation or an open import never carries over. */
export function hrefWith(location: { pathname: string; search: string }, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(location.search);
  params.delete("delete");
  params.delete("import");
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const search = params.toString();
  return search ? `${location.pathname}?${search}` : location.pathname;
}
