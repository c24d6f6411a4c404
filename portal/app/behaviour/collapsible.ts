import { useCallback, useEffect, useRef, useState, type CSSProperties, type RefObject } from "react";

/** Taller content takes longer to unfold, but less than proportionally (Material's curve). */
export function getAutoHeightDuration(height: number): number {
  const c = height / 36;
  return Math.round((4 + 15 * c ** 0.25 + c / 5) * 10);
}

export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function collapseDuration(height: number): number {
  return prefersReducedMotion() ? 1 : getAutoHeightDuration(height);
}

export function collapseTransition(height: number): string {
  return `height ${collapseDuration(height)}ms ease-in-out`;
}

const COLLAPSED_STYLE: CSSProperties = { height: 0, overflow: "hidden", visibility: "hidden" };

/** Style for the first render, before any animation: also what the server sends. */
export function collapsedStyle(collapsed: boolean): CSSProperties | undefined {
  return collapsed ? COLLAPSED_STYLE : undefined;
}

/** Open/closed state of a collapsible panel. */
export function useCollapsible(initiallyCollapsed: boolean) {
  const [collapsed, setCollapsed] = useState(initiallyCollapsed);
  const toggle = useCallback(() => setCollapsed((value) => !value), []);
  return { collapsed, setCollapsed, toggle };
}

/**
 * Animates the element's height between 0 and its content height whenever `collapsed`
 * changes, and leaves it at `auto` when open so later content changes are not clipped.
 */
export function useCollapseAnimation(ref: RefObject<HTMLElement>, collapsed: boolean) {
  const first = useRef(true);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (first.current) {
      first.current = false;
      return;
    }
    const height = el.scrollHeight;
    el.style.overflow = "hidden";
    el.style.visibility = "visible";
    // Pin the starting height and force a layout, so the browser has a value to animate from.
    el.style.transition = "";
    el.style.height = collapsed ? `${height}px` : "0px";
    el.getBoundingClientRect();
    el.style.transition = collapseTransition(height);
    el.style.height = collapsed ? "0px" : `${height}px`;

    const settle = () => {
      el.style.transition = "";
      if (collapsed) {
        el.style.visibility = "hidden";
      } else {
        el.style.height = "";
        el.style.overflow = "";
      }
    };
    const onEnd = (event: TransitionEvent) => {
      if (event.target === el && event.propertyName === "height") settle();
    };
    // transitionend does not fire when nothing moved (zero height, hidden tab): settle anyway.
    const fallback = setTimeout(settle, collapseDuration(height) + 100);
    el.addEventListener("transitionend", onEnd);
    return () => {
      clearTimeout(fallback);
      el.removeEventListener("transitionend", onEnd);
    };
  }, [ref, collapsed]);
}
