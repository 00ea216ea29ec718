import { en } from "@auth/i18n/catalogues/en/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { type ListedPasskey, passkeyDetails } from "./listed-passkey.js";
import { speak } from "./words.js";

// The test browser speaks English.
beforeAll(() => speak({ catalogue: en }));

/** A time as the page shows it in English: a medium date and a short time of day, in the browser's zone. */
const shownTime = (timestamp: string): string => {
  const time = new Date(timestamp);
  const date = new Intl.DateTimeFormat("en", { dateStyle: "medium" }).format(time);
  return `${date}, ${new Intl.DateTimeFormat("en", { timeStyle: "short" }).format(time)}`;
};

const passkey: ListedPasskey = {
  id: "pk-1",
  name: "Work laptop",
  kind: "synced",
  transports: ["internal", "hybrid"],
  user_verified: true,
  created_at: "2026-03-01T09:30:00.000Z",
  clone_suspected: false,
};
const added = shownTime(passkey.created_at);

describe("what the signed-in view tells of each passkey beside its name", () => {
  it("tells a synced passkey from one on a single device or security key", () => {
    expect(passkeyDetails(passkey)).toBe(`Synced to your other devices. Added ${added}, not used yet.`);
    expect(passkeyDetails({ ...passkey, kind: "device-bound" })).toBe(
      `On one device or security key. Added ${added}, not used yet.`,
    );
  });

  it("tells when it was last used, in the page's date format", () => {
    const used = "2026-03-02T18:05:00.000Z";
    expect(passkeyDetails({ ...passkey, last_used_at: used })).toBe(
      `Synced to your other devices. Added ${added}, last used ${shownTime(used)}.`,
    );
  });

  it("tells that a passkey suspected of being copied no longer signs in, and is to be removed", () => {
    expect(passkeyDetails({ ...passkey, clone_suspected: true })).toBe(
      `Synced to your other devices. Added ${added}, not used yet. It may have been copied, so it no longer signs in: remove it.`,
    );
  });
});
