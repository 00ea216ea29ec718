import {
  type AuthenticationResponseJSON,
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  type PublicKeyCredentialRequestOptionsJSON,
  WebAuthnAbortService,
} from "@simplewebauthn/browser";
import { postAuth, type Reply } from "./api.js";
import type { Flow } from "./flow.js";
import { assertion, type Ceremony, checkPasskey } from "./passkey-ceremony.js";
import type { Step } from "./view.js";
import { text } from "./words.js";

/** A login without a login ID, begun by auth/passkeys/start and not yet the flow's. */
interface Begun {
  token: string;
  options: PublicKeyCredentialRequestOptionsJSON;
}

/**
 * "Sign in with a passkey" on the first step, a login without a login ID (docs/decisions.md,
 * "Passkeys"): auth/passkeys/start begins a session that has no user yet, with options for any
 * passkey of the site; the passkey the user picks names the user (auth/checkpasskey). As the step
 * shows, the options go to the login ID field's autofill (conditional UI) where the browser has it,
 * and the button asks in a dialog. The button shows once the service has answered with options: a
 * company without passkeys gives none.
 */
export class PasskeySignIn {
  readonly #button: HTMLButtonElement;
  #autofill = false;

  constructor(
    private readonly flow: Flow,
    private readonly step: Step,
  ) {
    this.#button = step.action(text("passkeySignIn.button"), () => this.#inDialog());
    this.#button.hidden = true;
    if (browserSupportsWebAuthn()) void this.#offer();
  }

  /** Ends the autofill's request: the user goes on another way. */
  stop(): void {
    WebAuthnAbortService.cancelCeremony();
  }

  async #offer(): Promise<void> {
    const [begun, autofill] = await Promise.all([this.#begin(), browserSupportsWebAuthnAutofill()]);
    if (!("token" in begun)) return;
    this.#button.hidden = false;
    this.#autofill = autofill;
    if (autofill) await this.#inAutofill(begun);
  }

  /** Waits for the user to pick a passkey in the login ID's autofill; a new ceremony ends the wait. */
  async #inAutofill(begun: Begun): Promise<void> {
    const ceremony = await assertion(begun.options, "autofill");
    // Only a passkey the user picked is checked, as a step action from here (not while waiting, which
    // would hold the step busy). An autofill that gave none is not told: the user asked for nothing.
    if ("credential" in ceremony)
      await this.step.run(async () => {
        await this.#check(begun, ceremony);
      });
  }

  async #inDialog(): Promise<void> {
    const begun = await this.#begin();
    if (!("token" in begun)) {
      this.flow.fail(this.step, begun.refused, {
        "auth.passkey.invalid": text("passkeySignIn.notOffered"),
      });
      return;
    }
    const signedIn = await this.#check(begun, await assertion(begun.options));
    // The dialog ended the autofill's request: offered again, with a login of its own.
    if (!signedIn && this.#autofill) {
      const again = await this.#begin();
      if ("token" in again) void this.#inAutofill(again);
    }
  }

  /** The passkey the user gave, to auth/checkpasskey in the login it was asked for; whether it signed in. */
  async #check(begun: Begun, ceremony: Ceremony<AuthenticationResponseJSON>): Promise<boolean> {
    if ("credential" in ceremony) this.flow.adopt(begun.token);
    const reply = await checkPasskey(
      this.flow,
      this.step,
      ceremony,
      {},
      {
        "auth.passkey.invalid": text("passkeySignIn.refused"),
      },
    );
    return reply?.answer.status === "success";
  }

  /** auth/passkeys/start, outside the flow until a passkey is picked (the user may type a login ID meanwhile). */
  async #begin(): Promise<Begun | { refused: Reply }> {
    const reply = await postAuth(this.flow.config, "passkeys/start", {}, undefined);
    const { session_token: token, passkey_options: options } = reply.answer;
    if (reply.answer.status !== "success" || !token || !options) return { refused: reply };
    return { token, options };
  }
}
