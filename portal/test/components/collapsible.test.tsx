import { act, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { collapseTransition, getAutoHeightDuration } from "~/behaviour/collapsible";
import { Collapsible } from "~/layout/Collapsible";
import { setMedia } from "./media";

const REDUCED = "(prefers-reduced-motion: reduce)";

function Panel() {
  const [collapsed, setCollapsed] = useState(true);
  return (
    <>
      <button onClick={() => setCollapsed((c) => !c)}>toggle</button>
      <Collapsible collapsed={collapsed}>
        <p>content</p>
      </Collapsible>
    </>
  );
}

describe("collapsible", () => {
  it("derives the duration from the content height: round((4 + 15·c^0.25 + c/5)·10) with c = height/36", () => {
    for (const height of [0, 36, 100, 360, 1000, 5000]) {
      const c = height / 36;
      expect(getAutoHeightDuration(height)).toBe(Math.round((4 + 15 * c ** 0.25 + c / 5) * 10));
    }
    expect(getAutoHeightDuration(360)).toBe(327);
    expect(getAutoHeightDuration(0)).toBe(40);
  });

  it("eases in and out, and takes 1 ms when reduced motion is preferred", () => {
    expect(collapseTransition(360)).toBe("height 327ms ease-in-out");
    setMedia(REDUCED, true);
    expect(collapseTransition(360)).toBe("height 1ms ease-in-out");
  });

  it("renders collapsed panels at height 0 and hidden, then animates open and settles at auto height", () => {
    const { container } = render(<Panel />);
    const panel = container.querySelector<HTMLElement>("[data-collapsed]")!;
    expect(panel.style.height).toBe("0px");
    expect(panel.style.visibility).toBe("hidden");

    Object.defineProperty(panel, "scrollHeight", { configurable: true, value: 360 });
    act(() => {
      fireEvent.click(screen.getByText("toggle"));
    });
    expect(panel.style.transition).toBe("height 327ms ease-in-out");
    expect(panel.style.visibility).toBe("visible");
    act(() => {
      const end = new Event("transitionend") as Event & { propertyName: string };
      end.propertyName = "height";
      panel.dispatchEvent(end);
    });
    expect(panel.style.height).toBe("");
    expect(panel.getAttribute("data-collapsed")).toBe("false");
  });
});
