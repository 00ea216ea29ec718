import type { Disclaimer } from "./api.js";
import { checkbox, element, externalLink, type Step } from "./view.js";
import { text } from "./words.js";

/** The disclaimers to accept: a checkbox each, described by the disclaimer and a link to its text. */
export class Disclaimers {
  readonly #group: HTMLFieldSetElement;
  #boxes: Array<{ code: string; input: HTMLInputElement }> = [];

  constructor(step: Step, required: Disclaimer[]) {
    this.#group = element(
      "fieldset",
      { class: "disclaimers" },
      element("legend", {}, text("disclaimers.legend")),
    );
    step.add(this.#group);
    this.update(required);
  }

  /** Shows these disclaimers; the ones accepted already stay ticked. */
  update(required: Disclaimer[]): void {
    const accepted = new Set(this.#accepted());
    this.#group.querySelectorAll(".check").forEach((box) => {
      box.remove();
    });
    this.#boxes = required.map((disclaimer) => {
      const { box, input } = checkbox(
        text("disclaimers.accept", { title: disclaimer.title }),
        `${disclaimer.description} `,
        externalLink(disclaimer.link, text("disclaimers.read", { title: disclaimer.title })),
      );
      input.checked = accepted.has(disclaimer.code);
      this.#group.append(box);
      return { code: disclaimer.code, input };
    });
    this.#group.hidden = required.length === 0;
  }

  /** `accept_disclaimers` when there are disclaimers to accept. */
  fields(): { accept_disclaimers?: string[] } {
    return this.#boxes.length > 0 ? { accept_disclaimers: this.#accepted() } : {};
  }

  #accepted(): string[] {
    return this.#boxes.filter(({ input }) => input.checked).map(({ code }) => code);
  }
}
