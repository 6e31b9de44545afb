import { data } from "react-router";
import { StatusPage } from "~/components/StatusPage";
import { t } from "~/lib/messages";

export function loader() {
  return data(null, { status: 404 });
}

export function meta() {
  return [{ title: `${t.shell.notFound} - ${t.appTitle}` }];
}

export default function NotFound() {
  return <StatusPage code={404} title={t.shell.notFound} text={t.shell.notFoundText} />;
}
