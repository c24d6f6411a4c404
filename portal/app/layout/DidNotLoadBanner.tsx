import { DID_NOT_LOAD_BANNER_ID, didNotLoadScript } from "~/behaviour/clientStartup";
import { ON_SERVER } from "~/reference/onServer";

/**
 * Server-rendered hidden; the inline script reveals it if the client application has not
 * started shortly after the page loaded. When it has started, it never shows: the browser's
 * render keeps the server's banner and script as they are (React leaves an element that sets its
 * inner HTML as it finds it when hydrating), so their text is not in the browser's JavaScript.
 */
export function DidNotLoadBanner() {
  return (
    <>
      {ON_SERVER ? (
        <div id={DID_NOT_LOAD_BANNER_ID} className="did-not-load-banner" role="alert" hidden>
          <p>
            <strong>Il sito non si è caricato correttamente.</strong> Gli script dell'applicazione non sono partiti: di solito succede
            quando l'indirizzo base (base URL) con cui il portale è stato costruito non corrisponde a quello da cui viene servito. Controlla
            l'impostazione dell'indirizzo base del deploy.
          </p>
        </div>
      ) : (
        <div
          id={DID_NOT_LOAD_BANNER_ID}
          className="did-not-load-banner"
          role="alert"
          hidden
          dangerouslySetInnerHTML={{ __html: "" }}
          suppressHydrationWarning
        />
      )}
      <script dangerouslySetInnerHTML={{ __html: ON_SERVER ? didNotLoadScript : "" }} suppressHydrationWarning />
    </>
  );
}
