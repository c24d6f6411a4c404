import { useRouteLoaderData } from "@remix-run/react";
import type { SidebarItem } from "~/docs/sidebar";
import { DEFAULT_HOSTS, DEFAULT_SUPPORT_EMAIL, type SiteConfig } from "./site";

export type SiteData = { site: SiteConfig; sidebar: SidebarItem[] };

const FALLBACK: SiteData = { site: { hosts: DEFAULT_HOSTS, supportEmail: DEFAULT_SUPPORT_EMAIL, demoCompanyId: null }, sidebar: [] };

/** The root loader's data; the defaults stand in when the root loader itself failed. */
export function useSiteData(): SiteData {
  return useRouteLoaderData<SiteData>("root") ?? FALLBACK;
}
