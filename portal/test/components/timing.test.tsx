import { jest } from "@jest/globals";
import { act, fireEvent, render, renderHook, screen } from "@testing-library/react";
import { LOADER_DELAY_MS, usePastDelay } from "~/behaviour/pastDelay";
import { useProgressBar } from "~/behaviour/progressBar";
import { Loader, LoadError } from "~/layout/LoadOnDemand";

beforeEach(() => jest.useFakeTimers());

describe("loader delay", () => {
  it("is 200 ms", () => expect(LOADER_DELAY_MS).toBe(200));

  it("usePastDelay turns true only after the delay, and false as soon as loading stops", () => {
    const { result, rerender } = renderHook(({ active }) => usePastDelay(active), { initialProps: { active: true } });
    act(() => jest.advanceTimersByTime(199));
    expect(result.current).toBe(false);
    act(() => jest.advanceTimersByTime(1));
    expect(result.current).toBe(true);
    rerender({ active: false });
    expect(result.current).toBe(false);
  });

  it("the spinner appears after 200 ms, centred in a status region", () => {
    const { container } = render(<Loader />);
    expect(container.querySelector(".spinner")).toBeNull();
    act(() => jest.advanceTimersByTime(200));
    expect(screen.getByRole("status").querySelector(".spinner")).not.toBeNull();
  });

  it("the failure box shows the error text and a Retry button", () => {
    const retry = jest.fn();
    render(<LoadError error={new Error("Network down")} onRetry={retry} />);
    expect(screen.getByRole("alert").textContent).toContain("Network down");
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(retry).toHaveBeenCalledTimes(1);
  });
});

describe("progress bar", () => {
  it("stays hidden for route changes shorter than 200 ms", () => {
    const { result, rerender } = renderHook(({ loading }) => useProgressBar(loading), { initialProps: { loading: true } });
    act(() => jest.advanceTimersByTime(150));
    rerender({ loading: false });
    act(() => jest.advanceTimersByTime(1000));
    expect(result.current.visible).toBe(false);
  });

  it("starts at 200 ms, creeps forward, completes after the update, then fades", () => {
    const { result, rerender } = renderHook(({ loading }) => useProgressBar(loading), { initialProps: { loading: true } });
    act(() => jest.advanceTimersByTime(199));
    expect(result.current.visible).toBe(false);
    act(() => jest.advanceTimersByTime(1));
    expect(result.current.visible).toBe(true);
    const start = result.current.progress;
    act(() => jest.advanceTimersByTime(2000));
    expect(result.current.progress).toBeGreaterThan(start);
    expect(result.current.progress).toBeLessThan(1);
    rerender({ loading: false });
    expect(result.current).toEqual({ visible: true, progress: 1 });
    act(() => jest.advanceTimersByTime(500));
    expect(result.current.visible).toBe(false);
  });
});
