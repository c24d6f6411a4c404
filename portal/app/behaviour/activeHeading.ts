import { useEffect, useState } from "react";

/** How far below the window's top a heading counts as "being read": just under the sticky navbar. */
function readingLine(): number {
  const value = getComputedStyle(document.documentElement).getPropertyValue("--navbar-height");
  return (Number.parseFloat(value) || 60) + 16;
}

/** The id of the last heading (of `ids`) that has scrolled above the reading line. */
export function findActiveHeading(ids: string[], line: number): string | null {
  let active: string | null = null;
  for (const id of ids) {
    const el = document.getElementById(id);
    if (!el) continue;
    if (el.getBoundingClientRect().top <= line) active = id;
    else break;
  }
  return active ?? ids[0] ?? null;
}

/** Follows scrolling to tell which TOC entry the reader is at. */
export function useActiveHeading(ids: string[]): string | null {
  const [active, setActive] = useState<string | null>(null);
  const key = ids.join(" ");

  useEffect(() => {
    const list = key ? key.split(" ") : [];
    let frame = 0;
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setActive(findActiveHeading(list, readingLine())));
    };
    update();
    window.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", update);
      window.removeEventListener("resize", update);
    };
  }, [key]);

  return active;
}
