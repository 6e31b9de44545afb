import { lazy } from "react";

/**
 * In the browser the table's code (mantine-react-table and TanStack Table, about a third of a list page's
 * JavaScript) comes after the page's own: the server-rendered rows stay on screen, and their links work, while
 * it loads; React hydrates the table when it arrives. The download starts as soon as a list page's code runs.
 */
const loading = import("./ResourceTable");

export const ResourceTable = lazy(async () => ({ default: (await loading).ResourceTable }));
