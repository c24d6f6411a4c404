import { DID_NOT_LOAD_BANNER_ID, didNotLoadScript } from "~/behaviour/clientStartup";

/**
 * Server-rendered hidden; the inline script reveals it if the client application has not
 * started shortly after the page loaded. When it has started, it never shows.
 */
export function DidNotLoadBanner() {
  return (
    <>
      <div id={DID_NOT_LOAD_BANNER_ID} className="did-not-load-banner" role="alert" hidden>
        <p>
          <strong>Il sito non si è caricato correttamente.</strong> Gli script dell'applicazione non sono partiti: di solito succede quando
          l'indirizzo base (base URL) con cui il portale è stato costruito non corrisponde a quello da cui viene servito. Controlla
          l'impostazione dell'indirizzo base del deploy.
        </p>
      </div>
      <script dangerouslySetInnerHTML={{ __html: didNotLoadScript }} />
    </>
  );
}
