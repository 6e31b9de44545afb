import { Alert, Paper } from "@mantine/core";
import { data, useFetcher, useLoaderData, useLocation, type LoaderFunctionArgs } from "react-router";
import { apiPath, permissionCode, resourceKey } from "../../../resources/define";
import { documentBase } from "../../../resources/document-form";
import { DOC_NO, DOC_STATUS, documentPageHref, documentPath, statusDictCode } from "../../../resources/document";
import { StatusBadge, statusIn } from "~/components/document/StatusBadge";
import { FilterBar } from "~/components/resource/FilterBar";
import { ListPagination } from "~/components/resource/ListPagination";
import { useAppLinkNavigation, type RowAction } from "~/components/resource/RowActions";
import { ResourceTable, type Row } from "~/components/resource/ResourceTable";
import { useExport } from "~/components/resource/useExport";
import { PlainButton } from "~/components/PlainButton";
import { IconDownload, IconPlus } from "~/components/icons";
import { apiCall } from "~/lib/api.server";
import { useDicts } from "~/lib/dicts";
import { documentListViewForPath, documentView, requireDocument } from "~/lib/document.server";
import { hrefWith, relativeTo } from "~/lib/list-url";
import { t } from "~/lib/messages";
import { useCurrentUser, usePermissions } from "~/lib/permissions";
import { listQuery, relationFilters, tableRow } from "~/lib/resource.server";
import classes from "../resource/list.module.css";

interface Page {
  records: Row[];
  total: number;
  totalCapped?: boolean;
  pageNum: number;
  pageSize: number;
}

/**
 * A document's list (decision 061): the resource list's table and filter bar over the headers, with the status. A
 * view of the document (出库审核) is the same list holding the view's filter, whatever the URL asks.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const doc = requireDocument(request);
  const url = new URL(request.url);
  const view = documentListViewForPath(doc, url.pathname);
  const query = { ...listQuery(doc.header, url), ...view?.filter };
  const result = await apiCall<Page>(request, context, "GET", documentPath(doc, "findPage"), { query });
  if (result.status === 403) throw data(null, { status: 401 });
  const exportQuery = new URLSearchParams(Object.entries(query).filter(([k]) => k !== "pageNum" && k !== "pageSize"));
  return data(
    {
      doc: documentView(doc),
      view: view ? { title: view.title, filter: view.filter } : null,
      page: result.status === 200 ? { ...result.data, records: result.data.records.map(tableRow<Row>(doc.header)) } : { records: [], total: 0, pageNum: 1, pageSize: 20 },
      error: result.status === 200 ? null : result.message || "Error",
      params: Object.fromEntries(url.searchParams),
      relations: await relationFilters(request, context, doc.header, url),
      exportQuery: exportQuery.toString(),
    },
    { status: result.status === 400 ? 400 : 200 },
  );
}

export function meta({ loaderData }: { loaderData: { doc: { title: string; menuTitle?: string }; view: { title: string } | null } | undefined }) {
  const doc = loaderData?.doc;
  return [{ title: `${loaderData?.view?.title ?? doc?.menuTitle ?? doc?.title ?? ""} - ${t.appTitle}` }];
}

export default function DocumentList() {
  const loaderData = useLoaderData<typeof loader>();
  const { doc, view, page, params, relations, error, exportQuery } = loaderData;
  // A view's fixed filters are not offered: its rows always hold them.
  const def = view ? { ...doc.header, fields: doc.header.fields.map((f) => (f.name in view.filter ? { ...f, filter: undefined } : f)) } : doc.header;
  const location = useLocation();
  const can = usePermissions();
  const user = useCurrentUser();
  const exporter = useExport();
  const batch = useFetcher();
  const onAppLinkClick = useAppLinkNavigation();
  const base = documentBase(doc);
  // The status filter offers the declared statuses (they are not rows of the dictionary table).
  const shared = useDicts();
  const statusDict = def.fields.find((f) => f.name === DOC_STATUS)?.dict ?? statusDictCode(doc.docType);
  const dicts = { ...shared, [statusDict]: doc.statuses.map((s) => ({ value: s.value, label: s.label })) };
  const canUpdate = can(permissionCode(def, "update"));
  const detail = (id: unknown) => relativeTo(location.pathname, `${base}/detail/${id}`);
  const rowActions = (record: Row): RowAction[] => [
    { key: "view", label: "查看", to: detail(record.id) },
    ...(canUpdate && doc.editable.includes(String(record[DOC_STATUS])) ? [{ key: "edit", label: "编辑", to: relativeTo(location.pathname, `${base}/edit/${record.id}`) }] : []),
    ...doc.pages
      .filter((p) => p.statuses.includes(String(record[DOC_STATUS])) && can(p.permission))
      .map((p) => ({ key: p.path, label: p.label, to: relativeTo(location.pathname, documentPageHref(doc, p, record)) })),
    { key: "print", label: "打印", to: relativeTo(location.pathname, `${base}/print/${record.id}`) },
  ];
  const exportHref = (format: string) => `${apiPath(def, "export")}?format=${format}${exportQuery ? `&${exportQuery}` : ""}`;
  return (
    <div className={classes.page}>
      <div className={classes.head}>
        <h3 className={classes.title}>{view?.title ?? doc.menuTitle ?? doc.title}</h3>
        <div className={classes.actions}>
          {can(permissionCode(def, "export")) && (
            <PlainButton href={exportHref("xlsx")} onClick={(e: React.MouseEvent<HTMLAnchorElement>) => exporter.start(e, `${doc.title}.xlsx`)} variant="default" leftSection={<IconDownload size={16} />}>
              导出 Excel
            </PlainButton>
          )}
          {doc.pages
            .filter((p) => p.creates && can(p.permission))
            .map((p) => (
              <PlainButton key={p.path} to={`${base}/${p.path}`} variant="default">
                {p.label}
              </PlainButton>
            ))}
          {can(permissionCode(def, "create")) && (
            <PlainButton to={`${base}/create`} leftSection={<IconPlus size={16} />}>
              新增
            </PlainButton>
          )}
        </div>
      </div>
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <FilterBar def={def} params={params} dicts={dicts} relations={relations} resetTo={location.pathname} />
      <Paper withBorder radius="md" style={{ overflow: "hidden" }} onClick={onAppLinkClick} data-app-links>
        <ResourceTable
          def={def}
          prefsKey={resourceKey(def)}
          records={page.records as Row[]}
          failed={!!error}
          dicts={dicts}
          prefs={user?.settings.tables?.[resourceKey(def)]}
          canDelete={false}
          rowActions={rowActions}
          batch={batch}
          renderCell={(field, record) =>
            field.name === DOC_NO ? (
              <a href={detail(record.id)} data-testid="document-link">
                {String(record[DOC_NO])}
              </a>
            ) : field.name === DOC_STATUS ? (
              <StatusBadge plain status={statusIn(doc.statuses, record[DOC_STATUS])} />
            ) : undefined
          }
        />
        <ListPagination total={page.total} capped={page.totalCapped} pageNum={page.pageNum} pageSize={page.pageSize} hrefFor={(changes) => relativeTo(location.pathname, hrefWith(location, changes))} />
      </Paper>
    </div>
  );
}
