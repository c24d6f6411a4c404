import { ENVIRONMENTS, parseEnvironment, useEnvironment } from "~/behaviour/environment";
import { EnvironmentHost } from "./EnvironmentHost";
import { ENVIRONMENT_LABELS, SITE_LANGUAGE } from "./site";

/** The strip above the navbar: BETA notice with the support address, and the environment picker. */
export function TopBar({ supportEmail }: { supportEmail: string }) {
  const { environment, setEnvironment } = useEnvironment();
  return (
    // A named region, so that its content (on every page) sits in a landmark like the rest of the page.
    <div className="top-bar" lang={SITE_LANGUAGE} role="region" aria-label="Stato della documentazione e ambiente">
      <p className="beta-banner">
        <span className="badge badge-beta">BETA</span>
        <span>
          Documentazione in beta. Supporto: <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
        </span>
      </p>
      <div className="environment-picker">
        <label htmlFor="environment-select">Ambiente:</label>
        <select id="environment-select" value={environment} onChange={(event) => setEnvironment(parseEnvironment(event.target.value))}>
          {ENVIRONMENTS.map((env) => (
            <option key={env} value={env}>
              {ENVIRONMENT_LABELS[env]}
            </option>
          ))}
        </select>
        <code className="environment-host">
          <EnvironmentHost />
        </code>
      </div>
    </div>
  );
}
