import type { Flow } from "./flow.js";
import { element, type Step } from "./view.js";
import { text } from "./words.js";

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
    const generate = element("button", { type: "button", class: "secondary" }, text("backupCodes.get"));
    generate.addEventListener("click", () => void this.step.run(() => this.#generate()));
    step.append(
      element(
        "section",
        { "aria-labelledby": headingId },
        element("h2", { id: headingId }, text("backupCodes.heading")),
        element("p", { class: "hint" }, text("backupCodes.intro")),
        generate,
        this.#shown,
      ),
    );
  }

  /** Shows the user's first set, which came with a passkey or app. */
  showFirst(codes: string[]): void {
    this.#show(codes, text("backupCodes.saveFirst"));
  }

  async #generate(): Promise<void> {
    const reply = await this.flow.send("backupcodes/generate");
    if (reply.answer.status !== "success") {
      this.flow.fail(this.step, reply, {
        // A session signed in before the user's first passkey or app, or too long ago.
        "auth.reauthentication.required": text("backupCodes.reauthenticate"),
      });
      return;
    }
    this.#show(reply.answer.backup_codes ?? [], text("backupCodes.saveNew"));
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
