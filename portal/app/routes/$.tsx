import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { withoutIndexSuffix } from "~/docs/urls";
import { NOT_FOUND_TITLE, NotFound } from "~/layout/NotFound";
import { SITE_TITLE } from "~/layout/site";

export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const pathname = withoutIndexSuffix(url.pathname);
  if (pathname !== url.pathname) throw redirect(pathname + url.search, 301);
  return data(null, { status: 404 });
}

export const meta: MetaFunction = () => [{ title: `${NOT_FOUND_TITLE} | ${SITE_TITLE}` }];

export default NotFound;
