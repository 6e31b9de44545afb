// The server renders the table at once (see `#resource-table` in package.json and table.client.ts).
export { ResourceTable } from "./ResourceTable";
