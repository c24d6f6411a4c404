import { useLocation, useNavigation } from "@remix-run/react";
import { useProgressBar } from "~/behaviour/progressBar";

/** Thin bar at the top of the window during a route change to another path. */
export function ProgressBar() {
  const navigation = useNavigation();
  const location = useLocation();
  const loading = navigation.state === "loading" && navigation.location.pathname !== location.pathname;
  const { visible, progress } = useProgressBar(loading);
  return (
    <div
      className="progress-bar"
      aria-hidden
      data-visible={visible}
      style={{ transform: `scaleX(${progress})`, opacity: visible ? 1 : 0 }}
    />
  );
}
