import type { Reply } from "./api.js";
import type { Flow } from "./flow.js";
import type { Messages } from "./messages.js";
import { element, newId, type Step } from "./view.js";

/** One form of a section: its element, and where more of its fields go (above its button). */
export interface SectionForm {
  readonly element: HTMLFormElement;
  add(...nodes: Node[]): void;
}

/**
 * A part of the signed-in view that changes the user's own account (the password, the phone, the
 * e-mail): a heading, an intro, its forms, and its own messages, shown beside the fields they are
 * about rather than atop a long view. Its buttons take turns with the step's (`Step.run`).
 */
export class AccountSection {
  readonly #section: HTMLElement;
  readonly #alert = element("p", { role: "alert", class: "error" });
  readonly #status = element("p", { role: "status", class: "notice" });

  constructor(
    private readonly flow: Flow,
    private readonly step: Step,
    heading: string,
    intro: string,
  ) {
    const headingId = newId("heading");
    this.#section = element(
      "section",
      { "aria-labelledby": headingId, class: "account" },
      element("h2", { id: headingId }, heading),
      element("p", { class: "hint" }, intro),
      this.#alert,
      this.#status,
    );
    step.append(this.#section);
  }

  /**
   * A form of the section with these fields, sent by its button (or Enter in a field): a secondary
   * one, the view's main button being "Sign out", unless `primary`.
   */
  form(
    fields: Node[],
    label: string,
    handler: () => Promise<void>,
    { primary = false }: { primary?: boolean } = {},
  ): SectionForm {
    const actions = element(
      "div",
      { class: "actions" },
      element("button", primary ? { type: "submit" } : { type: "submit", class: "secondary" }, label),
    );
    const form = element("form", { novalidate: "" }, ...fields, actions);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.step.run(async () => {
        this.error("");
        this.notice("");
        await handler();
      });
    });
    this.#section.append(form);
    return { element: form, add: (...nodes) => actions.before(...nodes) };
  }

  error(message: string): void {
    this.#alert.textContent = message;
  }

  notice(message: string): void {
    this.#status.textContent = message;
  }

  /** Tells why a call failed, here; or, when the session is gone, on a new start (`Flow.fail`). */
  fail(reply: Reply, messages?: Messages): void {
    this.flow.fail(this, reply, messages);
  }
}
