// The layout's public face: what other parts of the portal (the API reference) build pages with.
export { SiteShell } from "./SiteShell";
export { Navbar, NAVBAR_ID } from "./Navbar";
export { Main, MAIN_CONTENT_ID } from "./Main";
export { DocsLayout } from "./DocsLayout";
export { CodeTabs, CopyButton, copyText } from "./CodeTabs";
export { EnvironmentHost } from "./EnvironmentHost";
export { Collapsible } from "./Collapsible";
export { LoadOnDemand, Loader, LoadError } from "./LoadOnDemand";
export { CrashScreen } from "./CrashScreen";
export { NotFound } from "./NotFound";
export { ColorModeToggle } from "./ColorModeToggle";
export { useSiteData } from "./useSiteData";
export { useEnvironment, type Environment, type EnvironmentHosts } from "~/behaviour/environment";
export { useColorMode, type ColorMode, type ColorModeChoice } from "~/behaviour/colorMode";
export { useMobileSidebar } from "~/behaviour/mobileSidebar";
export { usePrefetch } from "~/behaviour/prefetch";
export { renderSample, SAMPLE_LANGUAGES, type CodeSample, type SampleLanguage } from "~/docs/samples";
