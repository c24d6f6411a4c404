import { Link } from "@remix-run/react";
import { useAnnouncementBar } from "~/behaviour/announcement";
import { CloseIcon } from "./Icons";
import { ANNOUNCEMENT, SITE_LANGUAGE } from "./site";

export function AnnouncementBar({ announcement = ANNOUNCEMENT }: { announcement?: typeof ANNOUNCEMENT }) {
  const { isActive, close } = useAnnouncementBar(announcement.id);
  if (!isActive) return null;
  return (
    <div className="announcement-bar" lang={SITE_LANGUAGE} role="region" aria-label="Annuncio" data-announcement-id={announcement.id}>
      <p>
        {announcement.text} <Link to={announcement.link.href}>{announcement.link.label}</Link>
      </p>
      <button type="button" className="icon-button announcement-close" onClick={close} aria-label="Chiudi l'annuncio">
        <CloseIcon />
      </button>
    </div>
  );
}
