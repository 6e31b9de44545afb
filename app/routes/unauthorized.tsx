import { data } from "react-router";
import { StatusPage } from "~/components/StatusPage";
import { t } from "~/lib/messages";

export function loader() {
  return data(null, { status: 401 });
}

export function meta() {
  return [{ title: `${t.shell.unauthorized} - ${t.appTitle}` }];
}

export default function Unauthorized() {
  return <StatusPage code={401} title={t.shell.unauthorized} text={t.shell.unauthorizedText} />;
}
