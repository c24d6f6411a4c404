import { jest } from "@jest/globals";
import { fireEvent, render, screen } from "@testing-library/react";
import { CLIENT_START_GRACE_MS, DID_NOT_LOAD_BANNER_ID, didNotLoadScript, markClientStarted } from "~/behaviour/clientStartup";
import { isFailedRouteLoad, shouldReload } from "~/behaviour/reloadOnFailedNavigation";
import { CrashScreen, errorCauses } from "~/layout/CrashScreen";

describe("crash screen", () => {
  it("says the page crashed, offers Try again, and lists the message and its causes; title 'Page Error'", () => {
    document.title = "Errors | Flusso Developers";
    const tryAgain = jest.fn();
    const error = new Error("Render failed", { cause: new Error("Bad data", { cause: "socket closed" }) });
    const { unmount } = render(<CrashScreen error={error} onTryAgain={tryAgain} />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("This page crashed.");
    expect(document.title).toBe("Page Error");
    expect(screen.getByText("Render failed")).toBeTruthy();
    expect(screen.getByText("Cause: Bad data")).toBeTruthy();
    expect(screen.getByText("Cause: socket closed")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(tryAgain).toHaveBeenCalledTimes(1);
    unmount();
    expect(document.title).toBe("Errors | Flusso Developers");
  });

  it("stops on a cause cycle", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    a.cause = b;
    expect(errorCauses(a)).toEqual([a, b]);
  });
});

describe("reload when the next route fails to load", () => {
  it("recognises a fetch that failed, not an application error", () => {
    expect(isFailedRouteLoad(new TypeError("Failed to fetch"))).toBe(true);
    expect(isFailedRouteLoad(new TypeError("NetworkError when attempting to fetch resource."))).toBe(true);
    expect(isFailedRouteLoad(new Error("Failed to fetch"))).toBe(false);
    expect(isFailedRouteLoad(new TypeError("x is undefined"))).toBe(false);
  });

  it("does not reload the same URL twice within 10 s", () => {
    expect(shouldReload("http://x/a", 1000, null)).toBe(true);
    expect(shouldReload("http://x/a", 5000, "1000 http://x/a")).toBe(false);
    expect(shouldReload("http://x/b", 5000, "1000 http://x/a")).toBe(true);
    expect(shouldReload("http://x/a", 12_000, "1000 http://x/a")).toBe(true);
  });
});

describe("did-not-load banner", () => {
  function page() {
    document.body.innerHTML = `<div id="${DID_NOT_LOAD_BANNER_ID}" hidden>Il sito non si è caricato correttamente</div>`;
    new Function(didNotLoadScript)();
    window.dispatchEvent(new Event("load"));
    return document.getElementById(DID_NOT_LOAD_BANNER_ID)!;
  }

  beforeEach(() => {
    jest.useFakeTimers();
    delete (window as { __flussoClientStarted?: boolean }).__flussoClientStarted;
  });

  it("appears when the client application has not started after load", () => {
    const banner = page();
    jest.advanceTimersByTime(CLIENT_START_GRACE_MS);
    expect(banner.hidden).toBe(false);
  });

  it("stays hidden when the client started", () => {
    const banner = page();
    markClientStarted();
    jest.advanceTimersByTime(CLIENT_START_GRACE_MS);
    expect(banner.hidden).toBe(true);
  });
});
