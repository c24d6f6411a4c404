import { fireEvent, render, screen } from "@testing-library/react";
import { createRemixStub } from "@remix-run/testing";
import { ANNOUNCEMENT_DISMISS_STORAGE_KEY, ANNOUNCEMENT_ID_STORAGE_KEY, announcementScript } from "~/behaviour/announcement";
import { AnnouncementBar } from "~/layout/AnnouncementBar";

const announcement = (id: string) => ({ id, text: `Announcement ${id}`, link: { label: "More", href: "/changelog" } });

function renderBar(id: string) {
  const Stub = createRemixStub([
    {
      path: "/",
      Component: () => (
        <>
          <p>page</p>
          <AnnouncementBar announcement={announcement(id)} />
        </>
      ),
    },
  ]);
  return render(<Stub />);
}

describe("announcement bar", () => {
  it("shows until dismissed, and the dismissal is kept in storage", async () => {
    const first = renderBar("one");
    await screen.findByText(/Announcement one/);
    fireEvent.click(screen.getByRole("button", { name: "Chiudi l'annuncio" }));
    expect(screen.queryByText(/Announcement one/)).toBeNull();
    expect(localStorage.getItem(ANNOUNCEMENT_DISMISS_STORAGE_KEY)).toBe("true");
    expect(localStorage.getItem(ANNOUNCEMENT_ID_STORAGE_KEY)).toBe("one");
    first.unmount();

    renderBar("one");
    await screen.findByText("page");
    expect(screen.queryByText(/Announcement one/)).toBeNull();
  });

  it("shows again when the announcement id changes", async () => {
    localStorage.setItem(ANNOUNCEMENT_ID_STORAGE_KEY, "one");
    localStorage.setItem(ANNOUNCEMENT_DISMISS_STORAGE_KEY, "true");
    renderBar("two");
    expect(await screen.findByText(/Announcement two/)).toBeTruthy();
    expect(localStorage.getItem(ANNOUNCEMENT_ID_STORAGE_KEY)).toBe("two");
    expect(localStorage.getItem(ANNOUNCEMENT_DISMISS_STORAGE_KEY)).toBe("false");
  });

  it("the head script hides a dismissed bar before paint, but never a new one", () => {
    localStorage.setItem(ANNOUNCEMENT_ID_STORAGE_KEY, "one");
    localStorage.setItem(ANNOUNCEMENT_DISMISS_STORAGE_KEY, "true");
    new Function(announcementScript("two"))();
    expect(document.documentElement.dataset.announcementDismissed).toBeUndefined();
    new Function(announcementScript("one"))();
    expect(document.documentElement.dataset.announcementDismissed).toBe("true");
  });
});
