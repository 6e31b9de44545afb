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

/**
 * A link relative to the list's own address (`edit/7`, `?delete=7`, `?pageNum=3`): a list's twenty rows of six links,
 * its pager and its sort headers would otherwise spell the list's path a hundred and forty times (issue 17). The
 * browser resolves it to the same address.
 */
export function relativeTo(here: string, to: string): string {
  if (to.startsWith(`${here}?`)) return to.slice(here.length);
  const dir = here.slice(0, here.lastIndexOf("/") + 1);
  const rest = to.slice(dir.length);
  // A first segment with a colon would read as a scheme; a slash would leave the folder.
  return to.startsWith(dir) && rest && !/^[^/]*:/.test(rest) && !rest.startsWith("/") ? rest : to;
}
