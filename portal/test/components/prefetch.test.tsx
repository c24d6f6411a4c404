import { renderHook } from "@testing-library/react";
import { canPrefetch, usePrefetch } from "~/behaviour/prefetch";

function withConnection(connection: object | undefined, run: () => void) {
  Object.defineProperty(navigator, "connection", { configurable: true, value: connection });
  try {
    run();
  } finally {
    Object.defineProperty(navigator, "connection", { configurable: true, value: undefined });
  }
}

describe("prefetch", () => {
  it("is allowed unless the connection is slow-2g or saves data", () => {
    expect(canPrefetch(undefined)).toBe(true);
    expect(canPrefetch({ effectiveType: "4g", saveData: false })).toBe(true);
    expect(canPrefetch({ effectiveType: "2g" })).toBe(true);
    expect(canPrefetch({ effectiveType: "slow-2g" })).toBe(false);
    expect(canPrefetch({ effectiveType: "4g", saveData: true })).toBe(false);
  });

  it("usePrefetch gives the wanted mode, or none on a constrained connection", () => {
    withConnection({ effectiveType: "4g" }, () => {
      expect(renderHook(() => usePrefetch("viewport")).result.current).toBe("viewport");
    });
    withConnection({ effectiveType: "slow-2g" }, () => {
      expect(renderHook(() => usePrefetch("intent")).result.current).toBe("none");
    });
    withConnection({ saveData: true }, () => {
      expect(renderHook(() => usePrefetch("intent")).result.current).toBe("none");
    });
  });
});
