import { useMemo } from "react";
import { mergeDictItems, type DictItem, type DictOption } from "../../resources/dicts";
import { useShellData } from "./shell-data";

/** The built-in dictionaries overlaid with the server's items (spec §3). */
export function useDicts(): Record<string, DictOption[]> {
  const { dictItemList } = useShellData();
  return useMemo(() => mergedOf(dictItemList), [dictItemList]);
}

/**
 * Kept with the items: on the server one list of items (per shell version) serves every request, and each page's
 * components merged it anew. The items are never changed once received.
 */
const merged = new WeakMap<DictItem[], Record<string, DictOption[]>>();

function mergedOf(items: DictItem[]): Record<string, DictOption[]> {
  let dicts = merged.get(items);
  if (!dicts) merged.set(items, (dicts = mergeDictItems(items)));
  return dicts;
}
