import { totpQrPath } from "../shared/page-config.js";
import { firstBackupCodesNotice } from "./backup-codes.js";
import type { Flow } from "./flow.js";
import type { OnEnrolled } from "./passkey-settings.js";
import { clearWhenWrong } from "./typed-secret.js";
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

/** What the signed-in view tells the setup, and is told by it. */
export interface SetupHooks {
  /** Whether the page knows that the user has an app (how this session was signed in). */
  hasApp: () => Promise<boolean>;
  /** After an app is set up: the session list again (the user's other sessions ended), backup codes offered. */
  onEnrolled: OnEnrolled;
}

const replaceNotice =
  "Your account has an authenticator app already. To replace it, enter a code from the app you have now too.";

/**
 * "Set up authenticator app" in the signed-in view (docs/api-contract.md, "Authenticator app"):
 * auth/totp/enrol gives the otpauth URI, shown as a QR code and as text with its secret, and a code
 * of the app confirms it (auth/totp/confirm), which ends the user's other sessions. A user who has an
 * app replaces it only with a code of that app too (`current_code`): its field is shown when the
 * page knows of the app, or once confirm answers that it is needed (the user has an app the page did
 * not know of, having signed in with a backup code).
 */
export class AuthenticatorSetup {
  readonly #section: HTMLElement;
  readonly #start: HTMLButtonElement;

  constructor(
    private readonly flow: Flow,
    private readonly step: Step,
    private readonly hooks: SetupHooks,
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
    const code = codeField("code", "Code from the app");
    const current = codeField(
      "current_code",
      "Code from the app you have now",
      "A code of the authenticator app you sign in with now: it is replaced by the new one.",
    );
    const form = element(
      "form",
      { novalidate: "" },
      code.box,
      current.box,
      element("button", { type: "submit" }, "Confirm"),
    );
    const replacing = new Replacing(code, current, await this.hooks.hasApp());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.step.run(() => this.#confirm(replacing));
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
    code.input.focus();
  }

  async #confirm(replacing: Replacing): Promise<void> {
    const { code, current } = replacing;
    const reply = await this.flow.send("totp/confirm", {
      code: code.input.value.trim(),
      ...(replacing.asked ? { current_code: current.input.value.trim() } : {}),
    });
    if (reply.answer.status !== "success") {
      // Without current_code, a 400 says that the user has an app to replace (and nothing was checked).
      if (!replacing.asked && reply.answer.error_code === "request.validation.failed") {
        replacing.ask();
        this.step.error(replaceNotice);
        current.input.focus();
        return;
      }
      this.flow.fail(this.step, reply, {
        "auth.otp.invalid": replacing.asked
          ? "A code is not right. Enter the codes both apps show now."
          : "The code is not right. Enter the code the app shows now.",
      });
      clearWhenWrong(reply, code.input, current.input);
      return;
    }
    const ended = reply.answer.sessions_ended ?? 0;
    // The list first: the step takes no other action until this handler returns, so the message
    // below comes when the page is ready for the next click.
    await this.hooks.onEnrolled(reply.answer);
    this.#section.replaceChildren(
      element("h2", {}, "Authenticator app"),
      element(
        "p",
        {},
        [
          "Your authenticator app is set up: sign in with its codes from now on.",
          ...(ended > 0 ? [`${ended} other sessions have ended.`] : []),
          ...(reply.answer.backup_codes ? [firstBackupCodesNotice] : []),
        ].join(" "),
      ),
    );
  }
}

interface CodeField {
  box: HTMLElement;
  label: HTMLLabelElement;
  input: HTMLInputElement;
}

/** A labelled field for a 6-digit code, with a hint read with it when given. */
function codeField(name: string, labelText: string, hint?: string): CodeField {
  const id = newId(name);
  const input = element("input", { id, type: "text", name, autocomplete: "one-time-code" });
  input.inputMode = "numeric";
  const label = element("label", { for: id }, labelText);
  const box = element("div", { class: "field" }, label);
  if (hint) {
    const hintId = newId("hint");
    input.setAttribute("aria-describedby", hintId);
    box.append(element("p", { id: hintId, class: "hint" }, hint));
  }
  box.append(input);
  return { box, label, input };
}

/** Whether the setup asks for a code of the app the user has now, with that field shown only then. */
class Replacing {
  #asked = false;

  constructor(
    readonly code: CodeField,
    readonly current: CodeField,
    known: boolean,
  ) {
    current.box.hidden = true;
    if (known) this.ask();
  }

  get asked(): boolean {
    return this.#asked;
  }

  /** Shows the current app's field, and names the other one's app the new one. */
  ask(): void {
    this.#asked = true;
    this.current.box.hidden = false;
    this.code.label.textContent = "Code from the new app";
  }
}
