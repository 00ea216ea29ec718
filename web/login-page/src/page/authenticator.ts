import { totpQrPath } from "../shared/page-config.js";
import type { Flow } from "./flow.js";
import { element, newId, type Step } from "./view.js";

/**
 * The QR code of the otpauth URI, drawn by the page server (the URI goes in a POST body), inline:
 * the page's CSP loads images from nowhere but itself.
 */
async function qrCode(uri: string): Promise<Element> {
  const response = await fetch(totpQrPath, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ uri }),
  });
  if (!response.ok) throw new Error("no QR code");
  const svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml").documentElement;
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "QR code for your authenticator app");
  svg.setAttribute("class", "qr");
  return document.importNode(svg, true);
}

/**
 * "Set up authenticator app" in the signed-in view (docs/api-contract.md, "Authenticator app"):
 * auth/totp/enrol gives the otpauth URI, shown as a QR code and as text with its secret, and a code
 * of the app confirms it (auth/totp/confirm), which ends the user's other sessions.
 */
export class AuthenticatorSetup {
  readonly #section: HTMLElement;
  readonly #start: HTMLButtonElement;

  constructor(
    private readonly flow: Flow,
    private readonly step: Step,
    private readonly onEnrolled: () => Promise<void>,
  ) {
    const headingId = "authenticator-heading";
    this.#start = element("button", { type: "button", class: "secondary" }, "Set up authenticator app");
    this.#start.addEventListener("click", () => void this.step.run(() => this.#enrol()));
    this.#section = element(
      "section",
      { "aria-labelledby": headingId },
      element("h2", { id: headingId }, "Authenticator app"),
      element(
        "p",
        { class: "hint" },
        "Sign in with a code from an app instead of an SMS, which someone who takes over your phone number or reads your messages could use.",
      ),
      this.#start,
    );
    step.append(this.#section);
  }

  async #enrol(): Promise<void> {
    const reply = await this.flow.send("totp/enrol");
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply);
      return;
    }
    const uri = reply.answer.otpauth_uri ?? "";
    const codeId = newId("totp-code");
    const code = element("input", { id: codeId, name: "code", autocomplete: "one-time-code" });
    code.inputMode = "numeric";
    const form = element(
      "form",
      { novalidate: "" },
      element("div", { class: "field" }, element("label", { for: codeId }, "Code from the app"), code),
      element("button", { type: "submit" }, "Confirm"),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.step.run(() => this.#confirm(code));
    });
    this.#start.hidden = true;
    this.#section.append(
      element("p", {}, "Scan this QR code with your authenticator app, then enter the code it shows."),
      await qrCode(uri),
      element(
        "p",
        { class: "hint" },
        "Or add it by hand: ",
        element("code", { class: "otpauth-uri" }, uri),
        ` (secret ${reply.answer.secret ?? ""})`,
      ),
      form,
    );
    code.focus();
  }

  async #confirm(code: HTMLInputElement): Promise<void> {
    const reply = await this.flow.send("totp/confirm", { code: code.value.trim() });
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply, {
        "auth.otp.invalid": "The code is not right. Enter the code the app shows now.",
      });
      code.value = "";
      code.focus();
      return;
    }
    const ended = reply.answer.sessions_ended ?? 0;
    // The list first: the step takes no other action until this handler returns, so the message
    // below comes when the page is ready for the next click.
    await this.onEnrolled();
    this.#section.replaceChildren(
      element("h2", {}, "Authenticator app"),
      element(
        "p",
        {},
        `Your authenticator app is set up: sign in with its codes from now on.${ended > 0 ? ` ${ended} other sessions have ended.` : ""}`,
      ),
    );
  }
}
