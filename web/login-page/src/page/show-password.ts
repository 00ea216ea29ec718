import { text } from "./words.js";

/**
 * "Show password" beside a password field: a toggle button (aria-pressed) that shows what was
 * typed as text, so that the user can check it, and hides it again. Every password field of the
 * page has one (view.ts's `Step.field`).
 */
export function showPasswordToggle(input: HTMLInputElement): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "secondary show-password";
  button.setAttribute("aria-controls", input.id);
  const show = (shown: boolean) => {
    input.type = shown ? "text" : "password";
    button.setAttribute("aria-pressed", String(shown));
    button.textContent = text(shown ? "common.hidePassword" : "common.showPassword");
  };
  button.addEventListener("click", () => show(input.type === "password"));
  show(false);
  return button;
}
