import { afterEach, jest } from "@jest/globals";
import { cleanup } from "@testing-library/react";
import { installMatchMedia, resetMedia } from "./media";

installMatchMedia();

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  resetMedia();
  for (const attribute of [...document.documentElement.attributes]) {
    if (attribute.name.startsWith("data-") || attribute.name === "style") document.documentElement.removeAttribute(attribute.name);
  }
  jest.useRealTimers();
});
