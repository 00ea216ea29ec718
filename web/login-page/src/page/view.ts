import { showPasswordToggle } from "./show-password.js";
import { pageTitle, text } from "./words.js";

type Child = Node | string;

let lastId = 0;
/** An id to tie a label, a hint or a message to its field. */
export const newId = (prefix: string): string => `${prefix}-${++lastId}`;

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) created.setAttribute(name, value);
  created.append(...children);
  return created;
}

/** A link that opens in a new tab: the session lives in this page's memory, so the page must stay. */
export function externalLink(href: string, label: string): HTMLAnchorElement {
  return element(
    "a",
    { href, target: "_blank", rel: "noopener noreferrer" },
    label,
    element("span", { class: "visually-hidden" }, ` ${text("link.newTab")}`),
  );
}

export interface FieldOptions {
  label: string;
  name: string;
  type?: "text" | "password" | "tel" | "email";
  autocomplete?: string;
  inputmode?: "numeric" | "text";
  /** Shown under the label and read with the field. */
  hint?: string;
  value?: string;
}

/** An input with its label and, when given, a hint read with it; a password's with its "Show password" (show-password.ts). */
export function labelledField(options: FieldOptions): {
  box: HTMLElement;
  label: HTMLLabelElement;
  input: HTMLInputElement;
} {
  const id = newId(options.name);
  const input = element("input", { id, name: options.name, type: options.type ?? "text" });
  if (options.autocomplete) input.autocomplete = options.autocomplete as AutoFill;
  if (options.inputmode) input.inputMode = options.inputmode;
  if (options.value) input.value = options.value;
  const label = element("label", { for: id }, options.label);
  const box = element("div", { class: "field" }, label);
  if (options.hint) {
    const hintId = newId("hint");
    input.setAttribute("aria-describedby", hintId);
    box.append(element("p", { id: hintId, class: "hint" }, options.hint));
  }
  box.append(
    options.type === "password"
      ? element("div", { class: "password-input" }, input, showPasswordToggle(input))
      : input,
  );
  return { box, label, input };
}

/** A labelled field for a 6-digit code, as the login's code fields are, with a hint read with it when given. */
export const codeField = (name: string, label: string, hint?: string): ReturnType<typeof labelledField> =>
  labelledField({ name, label, hint, autocomplete: "one-time-code", inputmode: "numeric" });

/** The login ID as a password form's hidden username, for password managers to save with the password. */
export const hiddenUsername = (loginId: string): Node[] =>
  loginId ? [element("input", { type: "text", autocomplete: "username", value: loginId, hidden: "" })] : [];

/** A checkbox with its label and, when given, a description read with it. */
export function checkbox(
  label: string,
  ...description: Child[]
): { box: HTMLElement; input: HTMLInputElement } {
  const id = newId("check");
  const input = element("input", { type: "checkbox", id });
  const box = element("div", { class: "check" }, input, element("label", { for: id }, label));
  if (description.length > 0) {
    const descriptionId = newId("description");
    input.setAttribute("aria-describedby", descriptionId);
    box.append(element("p", { id: descriptionId, class: "hint" }, ...description));
  }
  return { box, input };
}

/** One step of a flow: a heading, its messages and a form, shown in place of the step before. */
export class Step {
  readonly #section: HTMLElement;
  readonly #heading: HTMLHeadingElement;
  readonly #form: HTMLFormElement;
  readonly #actions: HTMLElement;
  readonly #alert: HTMLElement;
  readonly #status: HTMLElement;
  #busy = false;

  constructor(title: string, intro?: string) {
    const headingId = newId("heading");
    this.#heading = element("h1", { id: headingId, tabindex: "-1" }, title);
    this.#alert = element("p", { role: "alert", class: "error" });
    this.#status = element("p", { role: "status", class: "notice" });
    this.#actions = element("div", { class: "actions" });
    this.#form = element("form", { "aria-labelledby": headingId, novalidate: "" }, this.#actions);
    this.#section = element("section", {}, this.#heading);
    if (intro) this.#section.append(element("p", { class: "intro" }, intro));
    this.#section.append(this.#alert, this.#status, this.#form);
  }

  /** A labelled input in the form (`labelledField`). */
  field(options: FieldOptions): HTMLInputElement {
    const { box, input } = labelledField(options);
    this.add(box);
    return input;
  }

  /** The login ID as the form's hidden username (`hiddenUsername`). */
  username(loginId: string): void {
    this.add(...hiddenUsername(loginId));
  }

  /** Adds to the form, above its buttons. */
  add(...nodes: Node[]): void {
    this.#actions.before(...nodes);
  }

  /** Adds below the form. */
  append(...nodes: Node[]): void {
    this.#section.append(...nodes);
  }

  /** The form's main button; the handler runs on submit (the button, or Enter in a field). */
  submit(label: string, handler: () => Promise<void> | void): HTMLButtonElement {
    const button = element("button", { type: "submit" }, label);
    this.#actions.prepend(button);
    this.#form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.run(handler);
    });
    return button;
  }

  /** A further button of the step, which does not submit the form. */
  action(label: string, handler: () => Promise<void> | void): HTMLButtonElement {
    const button = element("button", { type: "button", class: "secondary" }, label);
    button.addEventListener("click", () => void this.run(handler));
    this.#actions.append(button);
    return button;
  }

  /** Runs what a button does, one at a time, with the messages of the last one cleared. */
  async run(handler: () => Promise<void> | void): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    this.#form.setAttribute("aria-busy", "true");
    this.error("");
    this.notice("");
    try {
      await handler();
    } finally {
      this.#busy = false;
      this.#form.removeAttribute("aria-busy");
    }
  }

  error(message: string): void {
    this.#alert.textContent = message;
  }

  notice(message: string): void {
    this.#status.textContent = message;
  }

  /** Shows the step in place of the one before and moves the focus to its first field, or its heading. */
  show(): void {
    document.querySelector("main")?.replaceChildren(this.#section);
    document.title = pageTitle(this.#heading.textContent ?? "");
    const fields = Array.from(this.#form.querySelectorAll("input"));
    (fields.find((field) => field.checkVisibility()) ?? this.#heading).focus();
  }
}

/** Keeps a button disabled for a while (a Retry-After), with the focus moved to `focus` meanwhile. */
export function disableFor(button: HTMLButtonElement, seconds: number, focus: HTMLElement): void {
  button.disabled = true;
  focus.focus();
  setTimeout(() => {
    button.disabled = false;
  }, seconds * 1000);
}
