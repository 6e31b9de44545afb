import { useMemo } from "react";
import { mergeDictItems, type DictOption } from "../../resources/dicts";
import { useCurrentUser } from "./permissions";

/** The built-in dictionaries overlaid with the server's items (spec §3). */
export function useDicts(): Record<string, DictOption[]> {
  const user = useCurrentUser();
  return useMemo(() => mergeDictItems(user?.dictItemList ?? []), [user]);
}
