import { totpQrPath } from "../shared/page-config.js";
import type { Flow } from "./flow.js";
import { secretGroups } from "./otpauth-secret.js";
import type { OnEnrolled } from "./passkey-settings.js";
import { clearWhenWrong } from "./typed-secret.js";
import { codeField, element, type labelledField, type Step } from "./view.js";
import { text } from "./words.js";

/**
 * The QR code of the otpauth URI, drawn by the page server (the URI goes in a POST body) and put
 * inline: the URI holds the secret, so no address that a log or a cache keeps ever names it.
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
  svg.setAttribute("aria-label", text("authenticator.qrLabel"));
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

/**
 * "Set up authenticator app" in the signed-in view (docs/api-contract.md, "Authenticator app"):
 * auth/totp/enrol gives the otpauth URI, shown as a QR code, as a link that opens an app on this
 * device, and as its secret in groups of four (copied as one value); a code of the app confirms it
 * (auth/totp/confirm), which ends the user's other sessions. A user who has an app replaces it only
 * with a code of that app too (`current_code`): its field is shown when the page knows of the app,
 * or once confirm answers that it is needed (the user has an app the page did not know of, having
 * signed in with a backup code).
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
    this.#start = element("button", { type: "button", class: "secondary" }, text("authenticator.setUp"));
    this.#start.addEventListener("click", () => void this.step.run(() => this.#enrol()));
    this.#section = element(
      "section",
      { "aria-labelledby": headingId },
      element("h2", { id: headingId }, text("authenticator.heading")),
      element("p", { class: "hint" }, text("authenticator.intro")),
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
    const code = codeField("code", text("authenticator.codeLabel"));
    const current = codeField(
      "current_code",
      text("authenticator.currentCodeLabel"),
      text("authenticator.currentCodeHint"),
    );
    const form = element(
      "form",
      { novalidate: "" },
      code.box,
      current.box,
      element(
        "div",
        { class: "actions" },
        element("button", { type: "submit" }, text("authenticator.confirm")),
      ),
    );
    const replacing = new Replacing(code, current, await this.hooks.hasApp());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.step.run(() => this.#confirm(replacing));
    });
    this.#start.hidden = true;
    this.#section.append(
      element("p", {}, text("authenticator.scan")),
      await qrCode(uri),
      element("p", {}, element("a", { class: "otpauth-uri", href: uri }, text("authenticator.openApp"))),
      element("p", { class: "hint" }, text("authenticator.byHand")),
      shownSecret(reply.answer.secret ?? ""),
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
        this.step.error(text("authenticator.replaceNotice"));
        current.input.focus();
        return;
      }
      this.flow.fail(this.step, reply, {
        "auth.otp.invalid": text(replacing.asked ? "authenticator.codesWrong" : "authenticator.codeWrong"),
      });
      clearWhenWrong(reply, code.input, current.input);
      return;
    }
    const ended = reply.answer.sessions_ended ?? 0;
    // The list first: the step takes no other action until this handler returns, so the message
    // below comes when the page is ready for the next click.
    await this.hooks.onEnrolled(reply.answer);
    this.#section.replaceChildren(
      element("h2", {}, text("authenticator.heading")),
      element(
        "p",
        {},
        [
          text("authenticator.done"),
          ...(ended > 0 ? [text("signedIn.otherSessionsEnded", { count: ended })] : []),
          ...(reply.answer.backup_codes ? [text("backupCodes.first")] : []),
        ].join(" "),
      ),
    );
  }
}

type CodeField = ReturnType<typeof labelledField>;

/**
 * The secret for typing by hand, in groups of four: each group its own element, spaced by the
 * styles, so that copying the whole gives the secret as one value, without spaces. A line may
 * break between groups (wbr), never within one.
 */
const shownSecret = (secret: string): HTMLElement =>
  element(
    "code",
    { class: "secret" },
    ...secretGroups(secret).flatMap((group, index) => [
      ...(index > 0 ? [element("wbr")] : []),
      element("span", {}, group),
    ]),
  );

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
    this.code.label.textContent = text("authenticator.newCodeLabel");
  }
}
