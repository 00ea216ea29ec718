import { checkbox, element, type Step } from "./view.js";
import { text } from "./words.js";

/**
 * The response the `dev` captcha provider accepts (docs/decisions.md). A company on reCAPTCHA,
 * hCaptcha or Turnstile would have that provider's widget here, and its token as the response.
 */
const devCaptchaResponse = "dev-captcha-pass";

/** The check that a person is there: asked after failed passwords, and always to start a recovery. */
export class Captcha {
  readonly #group: HTMLFieldSetElement;
  readonly #input: HTMLInputElement;

  constructor(step: Pick<Step, "add">, asked: boolean) {
    const { box, input } = checkbox(text("captcha.notRobot"));
    this.#input = input;
    this.#group = element(
      "fieldset",
      { class: "captcha" },
      element("legend", {}, text("captcha.legend")),
      box,
    );
    this.#group.hidden = !asked;
    step.add(this.#group);
  }

  ask(asked: boolean): void {
    this.#group.hidden = !asked;
  }

  /** `captcha_response` while the captcha is asked. Like a real captcha's token, a response is used once. */
  fields(): { captcha_response?: string } {
    if (this.#group.hidden) return {};
    const response = this.#input.checked ? devCaptchaResponse : "";
    this.#input.checked = false;
    return { captcha_response: response };
  }
}
