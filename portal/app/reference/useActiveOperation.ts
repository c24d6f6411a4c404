import { useEffect, useState } from "react";

/**
 * The anchor of the operation being read: the first one whose section crosses the band just
 * below the navbar. The sidebar marks it, as a table of contents does.
 */
export function useActiveOperation(): string | null {
  const [active, setActive] = useState<string | null>(null);

  useEffect(() => {
    if (typeof IntersectionObserver === "undefined") return;
    const sections = [...document.querySelectorAll<HTMLElement>(".ref-operation")];
    // The band starts a little below the navbar: an anchor jump leaves the previous section's last
    // pixels (the scroll padding) just under the navbar, and that one is not being read.
    const bandTop = (parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--navbar-height")) || 60) + 24;
    const crossing = new Set<Element>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) crossing.add(entry.target);
          else crossing.delete(entry.target);
        }
        const first = sections.find((section) => crossing.has(section));
        if (first) setActive(first.id);
      },
      { rootMargin: `-${bandTop}px 0px -60% 0px` },
    );
    for (const section of sections) observer.observe(section);
    return () => observer.disconnect();
  }, []);

  return active;
}
