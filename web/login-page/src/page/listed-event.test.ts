import { en } from "@auth/i18n/catalogues/en/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { eventDetails, eventLabel, type ListedEvent } from "./listed-event.js";
import { speak } from "./words.js";

// The test browser speaks English.
beforeAll(() => speak({ catalogue: en }));

/** A time as the page shows it in English: a medium date and a short time of day, in the browser's zone. */
const shownTime = (timestamp: string): string => {
  const time = new Date(timestamp);
  const date = new Intl.DateTimeFormat("en", { dateStyle: "medium" }).format(time);
  return `${date}, ${new Intl.DateTimeFormat("en", { timeStyle: "short" }).format(time)}`;
};

const signedIn: ListedEvent = {
  id: "019ab7c2-5d41-7e3a-9f10-4c2d8e6b1a07",
  type: "auth.login.succeeded",
  time: "2026-11-24T07:02:11.000Z",
  outcome: "succeeded",
  client_address: "198.51.100.23",
  factor: "app_code",
  actor: "user",
  current_session: false,
};
const at = shownTime(signedIn.time);

describe("the label of each of the user's events in the signed-in view", () => {
  it.each<[string, string]>([
    ["auth.login.succeeded", "Signed in"],
    ["auth.login.failed", "Sign-in failed"],
    ["auth.second_factor.failed", "Second sign-in step failed"],
    ["auth.account.locked", "Account locked"],
    ["auth.password.changed", "Password changed"],
    ["auth.recovery.started", "Recovery started"],
    ["auth.recovery.finished", "Access recovered"],
    ["auth.session.revoked", "Session ended"],
    ["admin.factor.changed", "Sign-in methods changed by an administrator"],
    ["admin.user.changed", "Account changed by an administrator"],
    ["admin.session.revoked", "Session ended by an administrator"],
  ])("calls %s “%s”", (type, label) => {
    expect(eventLabel({ ...signedIn, type })).toBe(label);
  });

  it.each<[string, string, string]>([
    ["app_code", "Authenticator app added", "Authenticator app removed"],
    ["passkey", "Passkey added", "Passkey removed"],
    ["backup_code", "Backup codes added", "Backup codes removed"],
    ["sms_code", "Phone for codes added", "Phone for codes removed"],
  ])("names the factor added or removed: %s", (factor, added, removed) => {
    expect(eventLabel({ ...signedIn, type: "auth.factor.enrolled", factor })).toBe(added);
    expect(eventLabel({ ...signedIn, type: "auth.factor.removed", factor })).toBe(removed);
  });

  it("calls a factor it has no name for a sign-in method", () => {
    expect(eventLabel({ ...signedIn, type: "auth.factor.enrolled", factor: null })).toBe(
      "Sign-in method added",
    );
    expect(eventLabel({ ...signedIn, type: "auth.factor.removed", factor: "oauth" })).toBe(
      "Sign-in method removed",
    );
  });

  it.each<[string | null, string]>([
    ["sms_code", "Phone number changed"],
    ["email_link", "E-mail address changed"],
    [null, "Phone number or e-mail address changed"],
  ])("names a changed address by its factor: %s", (factor, label) => {
    expect(eventLabel({ ...signedIn, type: "auth.contact.changed", factor })).toBe(label);
  });

  it("shows a type it does not know by its name", () => {
    expect(eventLabel({ ...signedIn, type: "auth.something.new" })).toBe("auth.something.new");
  });
});

describe("what the signed-in view tells beside each event's label", () => {
  it("tells when, in the page's date format and the browser's zone, and from which address", () => {
    expect(eventDetails(signedIn)).toBe(`${at}, from 198.51.100.23.`);
    expect(at).toContain("2026");
  });

  it("marks the event of this session", () => {
    expect(eventDetails({ ...signedIn, current_session: true })).toBe(
      `This session. ${at}, from 198.51.100.23.`,
    );
  });

  it("marks a failure in words", () => {
    expect(eventDetails({ ...signedIn, type: "auth.login.failed", outcome: "failed" })).toBe(
      `Failed. ${at}, from 198.51.100.23.`,
    );
  });

  it("names no address for an operator's or the suite's change", () => {
    expect(eventDetails({ ...signedIn, client_address: null, actor: "operator" })).toBe(`${at}.`);
  });
});
