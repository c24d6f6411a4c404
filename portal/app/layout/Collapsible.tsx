import { useRef, type ReactNode } from "react";
import { collapsedStyle, useCollapseAnimation } from "~/behaviour/collapsible";

/** A panel whose height animates open and shut; closed panels are out of the tab order. */
export function Collapsible({
  collapsed,
  id,
  className,
  children,
}: {
  collapsed: boolean;
  id?: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useCollapseAnimation(ref, collapsed);
  return (
    <div ref={ref} id={id} className={className} style={collapsedStyle(collapsed)} data-collapsed={collapsed}>
      {children}
    </div>
  );
}
