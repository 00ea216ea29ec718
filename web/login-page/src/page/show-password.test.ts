// @vitest-environment happy-dom
import { en } from "@auth/i18n/catalogues/en/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { labelledField } from "./view.js";
import { speak } from "./words.js";

// The test browser speaks English.
beforeAll(() => speak({ catalogue: en }));

/** A password field as every password step makes it (view.ts's labelledField), and its toggle. */
function passwordField() {
  const { box, input } = labelledField({ label: "Password", name: "password", type: "password" });
  document.body.replaceChildren(box);
  const toggle = box.querySelector<HTMLButtonElement>("button.show-password");
  if (!toggle) throw new Error("no Show password button");
  return { input, toggle };
}

describe("“Show password” beside every password field", () => {
  it("starts hidden: the field is a password, the toggle not pressed", () => {
    const { input, toggle } = passwordField();
    expect(input.type).toBe("password");
    expect(toggle.textContent).toBe("Show password");
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    expect(toggle.getAttribute("aria-controls")).toBe(input.id);
    // It submits nothing: Enter in the field still sends the form by the step's own button.
    expect(toggle.type).toBe("button");
  });

  it("shows what was typed as text when pressed, and hides it again when pressed again", () => {
    const { input, toggle } = passwordField();
    input.value = "typed-Password-1";
    toggle.click();
    expect([input.type, toggle.textContent, toggle.getAttribute("aria-pressed")]).toEqual([
      "text",
      "Hide password",
      "true",
    ]);
    toggle.click();
    expect([input.type, toggle.textContent, toggle.getAttribute("aria-pressed")]).toEqual([
      "password",
      "Show password",
      "false",
    ]);
    expect(input.value).toBe("typed-Password-1");
  });

  it("is on no other field", () => {
    const { box } = labelledField({ label: "Code from the SMS", name: "otp" });
    expect(box.querySelector("button")).toBeNull();
  });
});
