import { useMemo } from "react";
import { mergeDictItems, type DictOption } from "../../resources/dicts";
import { useShellData } from "./shell-data";

/** The built-in dictionaries overlaid with the server's items (spec §3). */
export function useDicts(): Record<string, DictOption[]> {
  const { dictItemList } = useShellData();
  return useMemo(() => mergeDictItems(dictItemList), [dictItemList]);
}
