import type { Flow } from "./flow.js";
import { element, type Step } from "./view.js";

/** Told with a new passkey or app when the user has no backup codes (their confirm's `offer_backup_codes`). */
export const backupCodesOffer =
  "You have no backup codes yet: get some, to sign in on a day you cannot use your passkey or app.";

/**
 * "Backup codes" in the signed-in view (docs/decisions.md, "Passkeys"): auth/backupcodes/generate
 * gives a new set, which ends the one before, shown this once. Offered after a first passkey or app.
 */
export class BackupCodes {
  readonly #offer: HTMLParagraphElement;
  readonly #shown = element("div", { class: "backup-codes" });

  constructor(
    private readonly flow: Flow,
    private readonly step: Step,
  ) {
    const headingId = "backup-codes-heading";
    const generate = element("button", { type: "button", class: "secondary" }, "Get new backup codes");
    generate.addEventListener("click", () => void this.step.run(() => this.#generate()));
    this.#offer = element("p", { class: "offer" }, backupCodesOffer);
    this.#offer.hidden = true;
    step.append(
      element(
        "section",
        { "aria-labelledby": headingId },
        element("h2", { id: headingId }, "Backup codes"),
        element(
          "p",
          { class: "hint" },
          "One-time codes to sign in with when you cannot use your passkey, app or phone. New codes end the ones you had.",
        ),
        this.#offer,
        generate,
        this.#shown,
      ),
    );
  }

  /** Asks the user, who has none, to get backup codes. */
  offer(): void {
    this.#offer.hidden = false;
  }

  async #generate(): Promise<void> {
    const reply = await this.flow.send("backupcodes/generate");
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply, {
        // As after a first passkey or app, which this session was not signed in with.
        "auth.reauthentication.required":
          "For your security, new backup codes need a recent sign-in with all your factors: sign out, sign in again (with your passkey or app, if you have one), then get them here.",
      });
      return;
    }
    this.#offer.hidden = true;
    const saveThem = element(
      "p",
      { tabindex: "-1" },
      "Save these codes somewhere safe now: they are shown only this once. Each works once; the codes you had before no longer work.",
    );
    this.#shown.replaceChildren(
      saveThem,
      element(
        "ul",
        {},
        ...(reply.answer.backup_codes ?? []).map((code) => element("li", {}, element("code", {}, code))),
      ),
    );
    saveThem.focus();
  }
}
