import { useEnvironment } from "~/behaviour/environment";

/**
 * The selected environment's host as text. Both hosts are in the markup and CSS shows the
 * selected one (see environmentScript), so server-rendered pages show the right host at once.
 */
export function EnvironmentHost() {
  const { hosts } = useEnvironment();
  return (
    <span className="env-host">
      <span data-env="development">{hosts.development}</span>
      <span data-env="production">{hosts.production}</span>
    </span>
  );
}
