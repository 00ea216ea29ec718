import type { Flow } from "./flow.js";
import { element, type Step } from "./view.js";

/** Told with a new passkey or app that came with the user's first backup codes (their confirm's `backup_codes`). */
export const firstBackupCodesNotice =
  "Your first backup codes are below: with them you can sign in on a day you cannot use your passkey or app.";

/**
 * "Backup codes" in the signed-in view (docs/decisions.md, "Passkeys"): the user's first set, which
 * comes with a first passkey or app, and auth/backupcodes/generate's new set, which ends the one
 * before; each shown this once.
 */
export class BackupCodes {
  readonly #shown = element("div", { class: "backup-codes" });

  constructor(
    private readonly flow: Flow,
    private readonly step: Step,
  ) {
    const headingId = "backup-codes-heading";
    const generate = element("button", { type: "button", class: "secondary" }, "Get new backup codes");
    generate.addEventListener("click", () => void this.step.run(() => this.#generate()));
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
        generate,
        this.#shown,
      ),
    );
  }

  /** Shows the user's first set, which came with a passkey or app. */
  showFirst(codes: string[]): void {
    this.#show(codes, "Save these codes somewhere safe now: they are shown only this once. Each works once.");
  }

  async #generate(): Promise<void> {
    const reply = await this.flow.send("backupcodes/generate");
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply, {
        // A session signed in before the user's first passkey or app, or too long ago.
        "auth.reauthentication.required":
          "For your security, new backup codes need a recent sign-in with all your factors: sign out, sign in again (with your passkey or app, if you have one), then get them here.",
      });
      return;
    }
    this.#show(
      reply.answer.backup_codes ?? [],
      "Save these codes somewhere safe now: they are shown only this once. Each works once; the codes you had before no longer work.",
    );
  }

  #show(codes: string[], saveThemText: string): void {
    const saveThem = element("p", { tabindex: "-1" }, saveThemText);
    this.#shown.replaceChildren(
      saveThem,
      element("ul", {}, ...codes.map((code) => element("li", {}, element("code", {}, code)))),
    );
    saveThem.focus();
  }
}
