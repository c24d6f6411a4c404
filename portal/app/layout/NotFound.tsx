import { Link } from "@remix-run/react";
import { Main } from "./Main";

export const NOT_FOUND_TITLE = "Pagina non trovata";

export function NotFound() {
  return (
    <Main className="not-found">
      <h1>{NOT_FOUND_TITLE}</h1>
      <p>Non abbiamo trovato quello che cercavi: la pagina potrebbe essere stata spostata o l'indirizzo contiene un errore.</p>
      <p>
        Torna alla <Link to="/">documentazione</Link> oppure apri l'<Link to="/api-reference/">API Reference</Link>.
      </p>
    </Main>
  );
}
